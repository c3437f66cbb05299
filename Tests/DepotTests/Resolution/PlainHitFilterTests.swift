import Testing

@testable import Depot

/// The key of `tag`'s `.cached` factory in `container`.
private func cachedKey<T: ManyTag>(of tag: T.Type, in container: Container) -> FactoryKey {
    tag.factory(of: container, scope: .cached).registration.key
}

/// The instance `tag`'s `.cached` factory resolves to in `container` (compared by
/// `ObjectIdentifier` while held: `===` on `AnyObject` in `#expect` crashes this compiler).
private func cachedInstance<T: ManyTag>(of tag: T.Type, in container: Container) -> AnyObject {
    tag.factory(of: container, scope: .cached)()
}

/// A plain `.cached` factory whose bit in the container's filter of registered keys is set by
/// another factory's registration: its hit first looks for a registration of its own (in a lock
/// section before the look in the table), finds none, and returns its kept instance; once it is
/// registered itself, the next resolve runs the registered closure.
@Suite struct PlainHitFilterTests {
    @Test func aCachedHitWhoseBitAnotherRegistrationSetStillFindsItsKeptInstance() throws {
        let container = Container()
        let tags = manyTags(600)
        let target = tags[0]
        let targetKey = cachedKey(of: target, in: container)
        // 599 other keys over 32 bits: one of them shares the target's (all but surely).
        var sharingTags: [any ManyTag.Type] = []
        for tag in tags.dropFirst() {
            let bit = cachedKey(of: tag, in: container).filterBit
            if bit == targetKey.filterBit { sharingTags.append(tag) }
        }
        let sharing = try #require(sharingTags.first)
        let declared = cachedInstance(of: target, in: container)
        sharing.register(in: container, scope: .cached)

        let plainness = container.manager.plainness(for: targetKey)
        #expect(plainness.isPlain)
        #expect(plainness.checksRegistration)
        let first = cachedInstance(of: target, in: container)
        let second = cachedInstance(of: target, in: container)
        #expect(ObjectIdentifier(first) == ObjectIdentifier(declared))
        #expect(ObjectIdentifier(second) == ObjectIdentifier(declared))
        let targetIsRegistered = target.resolvesRegistered(in: container, scope: .cached)
        let sharingIsRegistered = sharing.resolvesRegistered(in: container, scope: .cached)
        #expect(!targetIsRegistered)
        #expect(sharingIsRegistered)

        target.register(in: container, scope: .cached)
        let registered = cachedInstance(of: target, in: container)
        let again = cachedInstance(of: target, in: container)
        let targetIsRegisteredNow = target.resolvesRegistered(in: container, scope: .cached)
        #expect(ObjectIdentifier(registered) != ObjectIdentifier(declared))
        #expect(ObjectIdentifier(again) == ObjectIdentifier(registered))
        #expect(targetIsRegisteredNow)
    }
}
