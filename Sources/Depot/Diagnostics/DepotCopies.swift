#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Marks an image that holds a copy of Depot, so that each copy finds the others; not for use.
@_cdecl("depot_copy_marker")
public func _depotCopyMarker() {}

// Two copies of Depot in one process (a static library linked into two dynamic frameworks)
// each have their own containers' types and task-locals: a mock registered through one is
// never seen by resolves through the other. Each copy looks for the others on first use.
enum DepotCopies {
    /// Where each copy of Depot in the process was loaded from, this one first; one entry
    /// when there is no other.
    static let images: [String] = {
        let own = unsafeBitCast(
            _depotCopyMarker as @convention(c) () -> Void, to: UnsafeRawPointer.self)
        var markers: [UnsafeRawPointer] = [own]
        for name in loadedImages() {
            // Safe: the handle is only used to look a name up, and closed right after.
            guard let handle = dlopen(name, RTLD_NOLOAD | RTLD_LAZY) else { continue }
            defer { dlclose(handle) }
            if let marker = dlsym(handle, "depot_copy_marker").map(UnsafeRawPointer.init),
                !markers.contains(marker)
            {
                markers.append(marker)
            }
        }
        return markers.map { path(of: $0) ?? "an image at \($0)" }
    }()

    #if canImport(Darwin)
        /// The paths of the loaded images.
        private static func loadedImages() -> [String?] {
            (0..<_dyld_image_count()).map { _dyld_get_image_name($0).map(String.init) }
        }

        /// The path of the image that holds `address`.
        private static func path(of address: UnsafeRawPointer) -> String? {
            var info = Dl_info()
            guard dladdr(address, &info) != 0, let path = info.dli_fname else { return nil }
            return String(cString: path)
        }
    #else
        /// The paths of the loaded images, the main executable's as `nil`.
        private static func loadedImages() -> [String?] {
            [nil] + Array(Set(mappings.map(\.path))).sorted()
        }

        /// The path of the image mapped where `address` is.
        private static func path(of address: UnsafeRawPointer) -> String? {
            let address = UInt(bitPattern: address)
            return mappings.first { $0.start <= address && address < $0.end }?.path
        }

        /// The file-backed mappings of the process, from `/proc/self/maps`: each line is
        /// "start-end perms offset device inode path", read as bytes.
        private static let mappings: [(start: UInt, end: UInt, path: String)] = {
            guard let file = fopen("/proc/self/maps", "r") else { return [] }
            defer { fclose(file) }
            var found: [(start: UInt, end: UInt, path: String)] = []
            var line = [CChar](repeating: 0, count: 4_096)
            while fgets(&line, Int32(line.count), file) != nil {
                // Read as bytes: only the two addresses (in hexadecimal) and the path become text.
                let bytes = line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
                let range = bytes.prefix { $0 != UInt8(ascii: " ") }.split(separator: 45)  // "-"
                let text = { (part: ArraySlice<UInt8>) in String(decoding: part, as: UTF8.self) }
                guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), range.count == 2,
                    let start = UInt(text(range[0]), radix: 16),
                    let end = UInt(text(range[1]), radix: 16)
                else { continue }
                found.append((start, end, text(bytes[slash...])))
            }
            return found
        }()
    #endif

    /// Depot's message when the process holds more than one copy, or `nil`.
    static let message: String? = {
        guard images.count > 1 else { return nil }
        return "Depot: \(images.count) copies of Depot are loaded in this process, from: "
            + images.joined(separator: ", ") + ". Each has its own containers and "
            + "registrations, so a mock registered through one is never seen by the other. "
            + "Link Depot once: into one dynamic framework (the DepotDynamic product) that "
            + "every module links, not as a static library into several."
    }()

    /// Stops the process in debug builds, or logs once in release, on the first use of Depot
    /// in a process that holds another copy.
    static let checked: Void = {
        guard let message else { return }
        if FactoryContext.isDebugBuild { fatalError(message) }
        print(message)
    }()
}
