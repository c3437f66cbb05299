import Depot
import Swinject

// generated-names: a `.cached` hit among 256 kept `Bool` factories whose names a code generator
// might write: one length, one first and last character, one type (`flag000Enabled`...
// `flag255Enabled`). Their keys must hash apart by every character, or each hit probes
// past the others.
extension Scenarios {
    static var generatedNames: [Subject] {
        [
            Subject("generated-names", "Depot", note: "256 flags resolved, the last one hit") {
                let container = Depot.Container()
                for flag in generatedFlags { _ = container[keyPath: flag]() }
                return { n in for _ in 0..<n { blackHole(container.flag255Enabled()) } }
            },
            Subject("generated-names", "Swinject", note: "256 names of Bool, synchronized") {
                let swinject = SwinjectContainer()
                for index in 0..<256 {
                    let name = "flag" + String(1_000 + index).dropFirst() + "Enabled"
                    swinject.register(Bool.self, name: name) { _ in true }
                        .inObjectScope(.container)
                    _ = swinject.resolve(Bool.self, name: name)
                }
                let resolver = SendableResolver(swinject.synchronize())
                return { n in
                    for _ in 0..<n {
                        blackHole(resolver.resolve(Bool.self, name: "flag255Enabled"))
                    }
                }
            },
            Subject("generated-names", "baseline-mutex-dict", note: "256 keys") {
                let dictionary = MutexDictionary()
                for tag in tags(255) { tag.insert(in: dictionary) }
                dictionary.insert(Service(), for: Service.self)
                return { n in for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) } }
            },
        ]
    }
}

extension Depot.Container {
    var flag000Enabled: Factory<Bool> { self { true }.cached }
    var flag001Enabled: Factory<Bool> { self { true }.cached }
    var flag002Enabled: Factory<Bool> { self { true }.cached }
    var flag003Enabled: Factory<Bool> { self { true }.cached }
    var flag004Enabled: Factory<Bool> { self { true }.cached }
    var flag005Enabled: Factory<Bool> { self { true }.cached }
    var flag006Enabled: Factory<Bool> { self { true }.cached }
    var flag007Enabled: Factory<Bool> { self { true }.cached }
    var flag008Enabled: Factory<Bool> { self { true }.cached }
    var flag009Enabled: Factory<Bool> { self { true }.cached }
    var flag010Enabled: Factory<Bool> { self { true }.cached }
    var flag011Enabled: Factory<Bool> { self { true }.cached }
    var flag012Enabled: Factory<Bool> { self { true }.cached }
    var flag013Enabled: Factory<Bool> { self { true }.cached }
    var flag014Enabled: Factory<Bool> { self { true }.cached }
    var flag015Enabled: Factory<Bool> { self { true }.cached }
    var flag016Enabled: Factory<Bool> { self { true }.cached }
    var flag017Enabled: Factory<Bool> { self { true }.cached }
    var flag018Enabled: Factory<Bool> { self { true }.cached }
    var flag019Enabled: Factory<Bool> { self { true }.cached }
    var flag020Enabled: Factory<Bool> { self { true }.cached }
    var flag021Enabled: Factory<Bool> { self { true }.cached }
    var flag022Enabled: Factory<Bool> { self { true }.cached }
    var flag023Enabled: Factory<Bool> { self { true }.cached }
    var flag024Enabled: Factory<Bool> { self { true }.cached }
    var flag025Enabled: Factory<Bool> { self { true }.cached }
    var flag026Enabled: Factory<Bool> { self { true }.cached }
    var flag027Enabled: Factory<Bool> { self { true }.cached }
    var flag028Enabled: Factory<Bool> { self { true }.cached }
    var flag029Enabled: Factory<Bool> { self { true }.cached }
    var flag030Enabled: Factory<Bool> { self { true }.cached }
    var flag031Enabled: Factory<Bool> { self { true }.cached }
    var flag032Enabled: Factory<Bool> { self { true }.cached }
    var flag033Enabled: Factory<Bool> { self { true }.cached }
    var flag034Enabled: Factory<Bool> { self { true }.cached }
    var flag035Enabled: Factory<Bool> { self { true }.cached }
    var flag036Enabled: Factory<Bool> { self { true }.cached }
    var flag037Enabled: Factory<Bool> { self { true }.cached }
    var flag038Enabled: Factory<Bool> { self { true }.cached }
    var flag039Enabled: Factory<Bool> { self { true }.cached }
    var flag040Enabled: Factory<Bool> { self { true }.cached }
    var flag041Enabled: Factory<Bool> { self { true }.cached }
    var flag042Enabled: Factory<Bool> { self { true }.cached }
    var flag043Enabled: Factory<Bool> { self { true }.cached }
    var flag044Enabled: Factory<Bool> { self { true }.cached }
    var flag045Enabled: Factory<Bool> { self { true }.cached }
    var flag046Enabled: Factory<Bool> { self { true }.cached }
    var flag047Enabled: Factory<Bool> { self { true }.cached }
    var flag048Enabled: Factory<Bool> { self { true }.cached }
    var flag049Enabled: Factory<Bool> { self { true }.cached }
    var flag050Enabled: Factory<Bool> { self { true }.cached }
    var flag051Enabled: Factory<Bool> { self { true }.cached }
    var flag052Enabled: Factory<Bool> { self { true }.cached }
    var flag053Enabled: Factory<Bool> { self { true }.cached }
    var flag054Enabled: Factory<Bool> { self { true }.cached }
    var flag055Enabled: Factory<Bool> { self { true }.cached }
    var flag056Enabled: Factory<Bool> { self { true }.cached }
    var flag057Enabled: Factory<Bool> { self { true }.cached }
    var flag058Enabled: Factory<Bool> { self { true }.cached }
    var flag059Enabled: Factory<Bool> { self { true }.cached }
    var flag060Enabled: Factory<Bool> { self { true }.cached }
    var flag061Enabled: Factory<Bool> { self { true }.cached }
    var flag062Enabled: Factory<Bool> { self { true }.cached }
    var flag063Enabled: Factory<Bool> { self { true }.cached }
    var flag064Enabled: Factory<Bool> { self { true }.cached }
    var flag065Enabled: Factory<Bool> { self { true }.cached }
    var flag066Enabled: Factory<Bool> { self { true }.cached }
    var flag067Enabled: Factory<Bool> { self { true }.cached }
    var flag068Enabled: Factory<Bool> { self { true }.cached }
    var flag069Enabled: Factory<Bool> { self { true }.cached }
    var flag070Enabled: Factory<Bool> { self { true }.cached }
    var flag071Enabled: Factory<Bool> { self { true }.cached }
    var flag072Enabled: Factory<Bool> { self { true }.cached }
    var flag073Enabled: Factory<Bool> { self { true }.cached }
    var flag074Enabled: Factory<Bool> { self { true }.cached }
    var flag075Enabled: Factory<Bool> { self { true }.cached }
    var flag076Enabled: Factory<Bool> { self { true }.cached }
    var flag077Enabled: Factory<Bool> { self { true }.cached }
    var flag078Enabled: Factory<Bool> { self { true }.cached }
    var flag079Enabled: Factory<Bool> { self { true }.cached }
    var flag080Enabled: Factory<Bool> { self { true }.cached }
    var flag081Enabled: Factory<Bool> { self { true }.cached }
    var flag082Enabled: Factory<Bool> { self { true }.cached }
    var flag083Enabled: Factory<Bool> { self { true }.cached }
    var flag084Enabled: Factory<Bool> { self { true }.cached }
    var flag085Enabled: Factory<Bool> { self { true }.cached }
    var flag086Enabled: Factory<Bool> { self { true }.cached }
    var flag087Enabled: Factory<Bool> { self { true }.cached }
    var flag088Enabled: Factory<Bool> { self { true }.cached }
    var flag089Enabled: Factory<Bool> { self { true }.cached }
    var flag090Enabled: Factory<Bool> { self { true }.cached }
    var flag091Enabled: Factory<Bool> { self { true }.cached }
    var flag092Enabled: Factory<Bool> { self { true }.cached }
    var flag093Enabled: Factory<Bool> { self { true }.cached }
    var flag094Enabled: Factory<Bool> { self { true }.cached }
    var flag095Enabled: Factory<Bool> { self { true }.cached }
    var flag096Enabled: Factory<Bool> { self { true }.cached }
    var flag097Enabled: Factory<Bool> { self { true }.cached }
    var flag098Enabled: Factory<Bool> { self { true }.cached }
    var flag099Enabled: Factory<Bool> { self { true }.cached }
    var flag100Enabled: Factory<Bool> { self { true }.cached }
    var flag101Enabled: Factory<Bool> { self { true }.cached }
    var flag102Enabled: Factory<Bool> { self { true }.cached }
    var flag103Enabled: Factory<Bool> { self { true }.cached }
    var flag104Enabled: Factory<Bool> { self { true }.cached }
    var flag105Enabled: Factory<Bool> { self { true }.cached }
    var flag106Enabled: Factory<Bool> { self { true }.cached }
    var flag107Enabled: Factory<Bool> { self { true }.cached }
    var flag108Enabled: Factory<Bool> { self { true }.cached }
    var flag109Enabled: Factory<Bool> { self { true }.cached }
    var flag110Enabled: Factory<Bool> { self { true }.cached }
    var flag111Enabled: Factory<Bool> { self { true }.cached }
    var flag112Enabled: Factory<Bool> { self { true }.cached }
    var flag113Enabled: Factory<Bool> { self { true }.cached }
    var flag114Enabled: Factory<Bool> { self { true }.cached }
    var flag115Enabled: Factory<Bool> { self { true }.cached }
    var flag116Enabled: Factory<Bool> { self { true }.cached }
    var flag117Enabled: Factory<Bool> { self { true }.cached }
    var flag118Enabled: Factory<Bool> { self { true }.cached }
    var flag119Enabled: Factory<Bool> { self { true }.cached }
    var flag120Enabled: Factory<Bool> { self { true }.cached }
    var flag121Enabled: Factory<Bool> { self { true }.cached }
    var flag122Enabled: Factory<Bool> { self { true }.cached }
    var flag123Enabled: Factory<Bool> { self { true }.cached }
    var flag124Enabled: Factory<Bool> { self { true }.cached }
    var flag125Enabled: Factory<Bool> { self { true }.cached }
    var flag126Enabled: Factory<Bool> { self { true }.cached }
    var flag127Enabled: Factory<Bool> { self { true }.cached }
    var flag128Enabled: Factory<Bool> { self { true }.cached }
    var flag129Enabled: Factory<Bool> { self { true }.cached }
    var flag130Enabled: Factory<Bool> { self { true }.cached }
    var flag131Enabled: Factory<Bool> { self { true }.cached }
    var flag132Enabled: Factory<Bool> { self { true }.cached }
    var flag133Enabled: Factory<Bool> { self { true }.cached }
    var flag134Enabled: Factory<Bool> { self { true }.cached }
    var flag135Enabled: Factory<Bool> { self { true }.cached }
    var flag136Enabled: Factory<Bool> { self { true }.cached }
    var flag137Enabled: Factory<Bool> { self { true }.cached }
    var flag138Enabled: Factory<Bool> { self { true }.cached }
    var flag139Enabled: Factory<Bool> { self { true }.cached }
    var flag140Enabled: Factory<Bool> { self { true }.cached }
    var flag141Enabled: Factory<Bool> { self { true }.cached }
    var flag142Enabled: Factory<Bool> { self { true }.cached }
    var flag143Enabled: Factory<Bool> { self { true }.cached }
    var flag144Enabled: Factory<Bool> { self { true }.cached }
    var flag145Enabled: Factory<Bool> { self { true }.cached }
    var flag146Enabled: Factory<Bool> { self { true }.cached }
    var flag147Enabled: Factory<Bool> { self { true }.cached }
    var flag148Enabled: Factory<Bool> { self { true }.cached }
    var flag149Enabled: Factory<Bool> { self { true }.cached }
    var flag150Enabled: Factory<Bool> { self { true }.cached }
    var flag151Enabled: Factory<Bool> { self { true }.cached }
    var flag152Enabled: Factory<Bool> { self { true }.cached }
    var flag153Enabled: Factory<Bool> { self { true }.cached }
    var flag154Enabled: Factory<Bool> { self { true }.cached }
    var flag155Enabled: Factory<Bool> { self { true }.cached }
    var flag156Enabled: Factory<Bool> { self { true }.cached }
    var flag157Enabled: Factory<Bool> { self { true }.cached }
    var flag158Enabled: Factory<Bool> { self { true }.cached }
    var flag159Enabled: Factory<Bool> { self { true }.cached }
    var flag160Enabled: Factory<Bool> { self { true }.cached }
    var flag161Enabled: Factory<Bool> { self { true }.cached }
    var flag162Enabled: Factory<Bool> { self { true }.cached }
    var flag163Enabled: Factory<Bool> { self { true }.cached }
    var flag164Enabled: Factory<Bool> { self { true }.cached }
    var flag165Enabled: Factory<Bool> { self { true }.cached }
    var flag166Enabled: Factory<Bool> { self { true }.cached }
    var flag167Enabled: Factory<Bool> { self { true }.cached }
    var flag168Enabled: Factory<Bool> { self { true }.cached }
    var flag169Enabled: Factory<Bool> { self { true }.cached }
    var flag170Enabled: Factory<Bool> { self { true }.cached }
    var flag171Enabled: Factory<Bool> { self { true }.cached }
    var flag172Enabled: Factory<Bool> { self { true }.cached }
    var flag173Enabled: Factory<Bool> { self { true }.cached }
    var flag174Enabled: Factory<Bool> { self { true }.cached }
    var flag175Enabled: Factory<Bool> { self { true }.cached }
    var flag176Enabled: Factory<Bool> { self { true }.cached }
    var flag177Enabled: Factory<Bool> { self { true }.cached }
    var flag178Enabled: Factory<Bool> { self { true }.cached }
    var flag179Enabled: Factory<Bool> { self { true }.cached }
    var flag180Enabled: Factory<Bool> { self { true }.cached }
    var flag181Enabled: Factory<Bool> { self { true }.cached }
    var flag182Enabled: Factory<Bool> { self { true }.cached }
    var flag183Enabled: Factory<Bool> { self { true }.cached }
    var flag184Enabled: Factory<Bool> { self { true }.cached }
    var flag185Enabled: Factory<Bool> { self { true }.cached }
    var flag186Enabled: Factory<Bool> { self { true }.cached }
    var flag187Enabled: Factory<Bool> { self { true }.cached }
    var flag188Enabled: Factory<Bool> { self { true }.cached }
    var flag189Enabled: Factory<Bool> { self { true }.cached }
    var flag190Enabled: Factory<Bool> { self { true }.cached }
    var flag191Enabled: Factory<Bool> { self { true }.cached }
    var flag192Enabled: Factory<Bool> { self { true }.cached }
    var flag193Enabled: Factory<Bool> { self { true }.cached }
    var flag194Enabled: Factory<Bool> { self { true }.cached }
    var flag195Enabled: Factory<Bool> { self { true }.cached }
    var flag196Enabled: Factory<Bool> { self { true }.cached }
    var flag197Enabled: Factory<Bool> { self { true }.cached }
    var flag198Enabled: Factory<Bool> { self { true }.cached }
    var flag199Enabled: Factory<Bool> { self { true }.cached }
    var flag200Enabled: Factory<Bool> { self { true }.cached }
    var flag201Enabled: Factory<Bool> { self { true }.cached }
    var flag202Enabled: Factory<Bool> { self { true }.cached }
    var flag203Enabled: Factory<Bool> { self { true }.cached }
    var flag204Enabled: Factory<Bool> { self { true }.cached }
    var flag205Enabled: Factory<Bool> { self { true }.cached }
    var flag206Enabled: Factory<Bool> { self { true }.cached }
    var flag207Enabled: Factory<Bool> { self { true }.cached }
    var flag208Enabled: Factory<Bool> { self { true }.cached }
    var flag209Enabled: Factory<Bool> { self { true }.cached }
    var flag210Enabled: Factory<Bool> { self { true }.cached }
    var flag211Enabled: Factory<Bool> { self { true }.cached }
    var flag212Enabled: Factory<Bool> { self { true }.cached }
    var flag213Enabled: Factory<Bool> { self { true }.cached }
    var flag214Enabled: Factory<Bool> { self { true }.cached }
    var flag215Enabled: Factory<Bool> { self { true }.cached }
    var flag216Enabled: Factory<Bool> { self { true }.cached }
    var flag217Enabled: Factory<Bool> { self { true }.cached }
    var flag218Enabled: Factory<Bool> { self { true }.cached }
    var flag219Enabled: Factory<Bool> { self { true }.cached }
    var flag220Enabled: Factory<Bool> { self { true }.cached }
    var flag221Enabled: Factory<Bool> { self { true }.cached }
    var flag222Enabled: Factory<Bool> { self { true }.cached }
    var flag223Enabled: Factory<Bool> { self { true }.cached }
    var flag224Enabled: Factory<Bool> { self { true }.cached }
    var flag225Enabled: Factory<Bool> { self { true }.cached }
    var flag226Enabled: Factory<Bool> { self { true }.cached }
    var flag227Enabled: Factory<Bool> { self { true }.cached }
    var flag228Enabled: Factory<Bool> { self { true }.cached }
    var flag229Enabled: Factory<Bool> { self { true }.cached }
    var flag230Enabled: Factory<Bool> { self { true }.cached }
    var flag231Enabled: Factory<Bool> { self { true }.cached }
    var flag232Enabled: Factory<Bool> { self { true }.cached }
    var flag233Enabled: Factory<Bool> { self { true }.cached }
    var flag234Enabled: Factory<Bool> { self { true }.cached }
    var flag235Enabled: Factory<Bool> { self { true }.cached }
    var flag236Enabled: Factory<Bool> { self { true }.cached }
    var flag237Enabled: Factory<Bool> { self { true }.cached }
    var flag238Enabled: Factory<Bool> { self { true }.cached }
    var flag239Enabled: Factory<Bool> { self { true }.cached }
    var flag240Enabled: Factory<Bool> { self { true }.cached }
    var flag241Enabled: Factory<Bool> { self { true }.cached }
    var flag242Enabled: Factory<Bool> { self { true }.cached }
    var flag243Enabled: Factory<Bool> { self { true }.cached }
    var flag244Enabled: Factory<Bool> { self { true }.cached }
    var flag245Enabled: Factory<Bool> { self { true }.cached }
    var flag246Enabled: Factory<Bool> { self { true }.cached }
    var flag247Enabled: Factory<Bool> { self { true }.cached }
    var flag248Enabled: Factory<Bool> { self { true }.cached }
    var flag249Enabled: Factory<Bool> { self { true }.cached }
    var flag250Enabled: Factory<Bool> { self { true }.cached }
    var flag251Enabled: Factory<Bool> { self { true }.cached }
    var flag252Enabled: Factory<Bool> { self { true }.cached }
    var flag253Enabled: Factory<Bool> { self { true }.cached }
    var flag254Enabled: Factory<Bool> { self { true }.cached }
    var flag255Enabled: Factory<Bool> { self { true }.cached }
}

/// Each flag, in order of declaration.
let generatedFlags: [KeyPath<Depot.Container, Factory<Bool>> & Sendable] = [
    \.flag000Enabled,
    \.flag001Enabled,
    \.flag002Enabled,
    \.flag003Enabled,
    \.flag004Enabled,
    \.flag005Enabled,
    \.flag006Enabled,
    \.flag007Enabled,
    \.flag008Enabled,
    \.flag009Enabled,
    \.flag010Enabled,
    \.flag011Enabled,
    \.flag012Enabled,
    \.flag013Enabled,
    \.flag014Enabled,
    \.flag015Enabled,
    \.flag016Enabled,
    \.flag017Enabled,
    \.flag018Enabled,
    \.flag019Enabled,
    \.flag020Enabled,
    \.flag021Enabled,
    \.flag022Enabled,
    \.flag023Enabled,
    \.flag024Enabled,
    \.flag025Enabled,
    \.flag026Enabled,
    \.flag027Enabled,
    \.flag028Enabled,
    \.flag029Enabled,
    \.flag030Enabled,
    \.flag031Enabled,
    \.flag032Enabled,
    \.flag033Enabled,
    \.flag034Enabled,
    \.flag035Enabled,
    \.flag036Enabled,
    \.flag037Enabled,
    \.flag038Enabled,
    \.flag039Enabled,
    \.flag040Enabled,
    \.flag041Enabled,
    \.flag042Enabled,
    \.flag043Enabled,
    \.flag044Enabled,
    \.flag045Enabled,
    \.flag046Enabled,
    \.flag047Enabled,
    \.flag048Enabled,
    \.flag049Enabled,
    \.flag050Enabled,
    \.flag051Enabled,
    \.flag052Enabled,
    \.flag053Enabled,
    \.flag054Enabled,
    \.flag055Enabled,
    \.flag056Enabled,
    \.flag057Enabled,
    \.flag058Enabled,
    \.flag059Enabled,
    \.flag060Enabled,
    \.flag061Enabled,
    \.flag062Enabled,
    \.flag063Enabled,
    \.flag064Enabled,
    \.flag065Enabled,
    \.flag066Enabled,
    \.flag067Enabled,
    \.flag068Enabled,
    \.flag069Enabled,
    \.flag070Enabled,
    \.flag071Enabled,
    \.flag072Enabled,
    \.flag073Enabled,
    \.flag074Enabled,
    \.flag075Enabled,
    \.flag076Enabled,
    \.flag077Enabled,
    \.flag078Enabled,
    \.flag079Enabled,
    \.flag080Enabled,
    \.flag081Enabled,
    \.flag082Enabled,
    \.flag083Enabled,
    \.flag084Enabled,
    \.flag085Enabled,
    \.flag086Enabled,
    \.flag087Enabled,
    \.flag088Enabled,
    \.flag089Enabled,
    \.flag090Enabled,
    \.flag091Enabled,
    \.flag092Enabled,
    \.flag093Enabled,
    \.flag094Enabled,
    \.flag095Enabled,
    \.flag096Enabled,
    \.flag097Enabled,
    \.flag098Enabled,
    \.flag099Enabled,
    \.flag100Enabled,
    \.flag101Enabled,
    \.flag102Enabled,
    \.flag103Enabled,
    \.flag104Enabled,
    \.flag105Enabled,
    \.flag106Enabled,
    \.flag107Enabled,
    \.flag108Enabled,
    \.flag109Enabled,
    \.flag110Enabled,
    \.flag111Enabled,
    \.flag112Enabled,
    \.flag113Enabled,
    \.flag114Enabled,
    \.flag115Enabled,
    \.flag116Enabled,
    \.flag117Enabled,
    \.flag118Enabled,
    \.flag119Enabled,
    \.flag120Enabled,
    \.flag121Enabled,
    \.flag122Enabled,
    \.flag123Enabled,
    \.flag124Enabled,
    \.flag125Enabled,
    \.flag126Enabled,
    \.flag127Enabled,
    \.flag128Enabled,
    \.flag129Enabled,
    \.flag130Enabled,
    \.flag131Enabled,
    \.flag132Enabled,
    \.flag133Enabled,
    \.flag134Enabled,
    \.flag135Enabled,
    \.flag136Enabled,
    \.flag137Enabled,
    \.flag138Enabled,
    \.flag139Enabled,
    \.flag140Enabled,
    \.flag141Enabled,
    \.flag142Enabled,
    \.flag143Enabled,
    \.flag144Enabled,
    \.flag145Enabled,
    \.flag146Enabled,
    \.flag147Enabled,
    \.flag148Enabled,
    \.flag149Enabled,
    \.flag150Enabled,
    \.flag151Enabled,
    \.flag152Enabled,
    \.flag153Enabled,
    \.flag154Enabled,
    \.flag155Enabled,
    \.flag156Enabled,
    \.flag157Enabled,
    \.flag158Enabled,
    \.flag159Enabled,
    \.flag160Enabled,
    \.flag161Enabled,
    \.flag162Enabled,
    \.flag163Enabled,
    \.flag164Enabled,
    \.flag165Enabled,
    \.flag166Enabled,
    \.flag167Enabled,
    \.flag168Enabled,
    \.flag169Enabled,
    \.flag170Enabled,
    \.flag171Enabled,
    \.flag172Enabled,
    \.flag173Enabled,
    \.flag174Enabled,
    \.flag175Enabled,
    \.flag176Enabled,
    \.flag177Enabled,
    \.flag178Enabled,
    \.flag179Enabled,
    \.flag180Enabled,
    \.flag181Enabled,
    \.flag182Enabled,
    \.flag183Enabled,
    \.flag184Enabled,
    \.flag185Enabled,
    \.flag186Enabled,
    \.flag187Enabled,
    \.flag188Enabled,
    \.flag189Enabled,
    \.flag190Enabled,
    \.flag191Enabled,
    \.flag192Enabled,
    \.flag193Enabled,
    \.flag194Enabled,
    \.flag195Enabled,
    \.flag196Enabled,
    \.flag197Enabled,
    \.flag198Enabled,
    \.flag199Enabled,
    \.flag200Enabled,
    \.flag201Enabled,
    \.flag202Enabled,
    \.flag203Enabled,
    \.flag204Enabled,
    \.flag205Enabled,
    \.flag206Enabled,
    \.flag207Enabled,
    \.flag208Enabled,
    \.flag209Enabled,
    \.flag210Enabled,
    \.flag211Enabled,
    \.flag212Enabled,
    \.flag213Enabled,
    \.flag214Enabled,
    \.flag215Enabled,
    \.flag216Enabled,
    \.flag217Enabled,
    \.flag218Enabled,
    \.flag219Enabled,
    \.flag220Enabled,
    \.flag221Enabled,
    \.flag222Enabled,
    \.flag223Enabled,
    \.flag224Enabled,
    \.flag225Enabled,
    \.flag226Enabled,
    \.flag227Enabled,
    \.flag228Enabled,
    \.flag229Enabled,
    \.flag230Enabled,
    \.flag231Enabled,
    \.flag232Enabled,
    \.flag233Enabled,
    \.flag234Enabled,
    \.flag235Enabled,
    \.flag236Enabled,
    \.flag237Enabled,
    \.flag238Enabled,
    \.flag239Enabled,
    \.flag240Enabled,
    \.flag241Enabled,
    \.flag242Enabled,
    \.flag243Enabled,
    \.flag244Enabled,
    \.flag245Enabled,
    \.flag246Enabled,
    \.flag247Enabled,
    \.flag248Enabled,
    \.flag249Enabled,
    \.flag250Enabled,
    \.flag251Enabled,
    \.flag252Enabled,
    \.flag253Enabled,
    \.flag254Enabled,
    \.flag255Enabled,
]
