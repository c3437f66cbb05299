import Foundation
import SQLiteNIO

/// A note, as the API reads and writes it.
public struct Note: Codable, Sendable, Equatable {
    public let id: Int
    public let text: String
}

/// What the routes read and write notes through: the database, or what a module wraps
/// around it.
public protocol NotesStore: Sendable {
    func insert(_ text: String) async throws -> Note
    func note(id: Int) async throws -> Note?
    func all() async throws -> [Note]
}

/// The notes, in an SQLite file.
public actor NotesDatabase: NotesStore {
    private let connection: SQLiteConnection
    private let stats: ServerStats

    private init(connection: SQLiteConnection, stats: ServerStats) {
        self.connection = connection
        self.stats = stats
    }

    /// Opens (and creates, the first time) the database at `path`.
    public static func open(path: String, stats: ServerStats) async throws -> NotesDatabase {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await connection.query(
            "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL)"
        )
        stats.count(\.databaseOpens)
        return NotesDatabase(connection: connection, stats: stats)
    }

    public func insert(_ text: String) async throws -> Note {
        _ = try await connection.query("INSERT INTO notes (text) VALUES (?)", [.text(text)])
        return Note(id: try await connection.lastAutoincrementID(), text: text)
    }

    public func note(id: Int) async throws -> Note? {
        try await connection.query("SELECT id, text FROM notes WHERE id = ?", [.integer(id)])
            .first.flatMap(Self.note)
    }

    public func all() async throws -> [Note] {
        try await connection.query("SELECT id, text FROM notes ORDER BY id").compactMap(Self.note)
    }

    public func close() async throws {
        try await connection.close()
        stats.count(\.databaseCloses)
    }

    private static func note(_ row: SQLiteRow) -> Note? {
        guard let id = row.column("id")?.integer, let text = row.column("text")?.string else {
            return nil
        }
        return Note(id: id, text: text)
    }
}
