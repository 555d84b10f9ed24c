internal import CNCurses
import Foundation
import Synchronization

/// The real terminal, through ncurses: the only file that touches curses.
///
/// Every curses call happens under one lock (curses is not thread-safe): the key thread waits in
/// `poll(2)` without the lock, then drains the keys with a non-blocking `get_wch`.
final class NCursesScreen: Screen {
    private struct State {
        var previous: CellBuffer?
        var width: Int
        var height: Int
        var ended = false
    }

    private let state: Mutex<State>
    private let colours: Bool
    /// Whether the locale is UTF-8 (box drawing and glyphs), decided after `setlocale`.
    let isUTF8: Bool
    /// Whether the terminal can show colours (and `NO_COLOR` is not set).
    var hasColours: Bool { colours }
    private let wakePipe: (read: Int32, write: Int32)
    private let keyThreadDone = DispatchSemaphore(value: 0)
    private let keyThreadStarted = Mutex(false)

    /// Enters curses mode. `wantColours` is false with `NO_COLOR`.
    init(wantColours: Bool) {
        setlocale(LC_ALL, "")
        isUTF8 = cn_is_utf8_locale() != 0
        initscr()
        cbreak()
        noecho()
        nonl()
        _ = cn_keypad(true)
        _ = cn_nodelay(true)
        set_escdelay(25)
        curs_set(0)
        var colours = false
        if wantColours, has_colors() {
            start_color()
            use_default_colors()
            let pairs: [(Style.Colour, Int32)] = [
                (.red, Int32(COLOR_RED)), (.green, Int32(COLOR_GREEN)), (.yellow, Int32(COLOR_YELLOW)),
                (.blue, Int32(COLOR_BLUE)), (.magenta, Int32(COLOR_MAGENTA)), (.cyan, Int32(COLOR_CYAN)),
            ]
            for (colour, curses) in pairs { init_pair(Int16(colour.rawValue), Int16(curses), -1) }
            colours = true
        }
        self.colours = colours
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        wakePipe = (fds[0], fds[1])
        state = Mutex(State(width: Int(cn_cols()), height: Int(cn_lines())))
    }

    var size: (width: Int, height: Int) { state.withLock { ($0.width, $0.height) } }

    func present(_ frame: CellBuffer) {
        state.withLock { state in
            guard !state.ended else { return }
            if state.previous == nil || state.previous?.width != frame.width || state.previous?.height != frame.height {
                _ = cn_erase()
                _ = cn_clearok(true)
                state.previous = nil
            }
            for change in frame.changes(since: state.previous) {
                _ = cn_attrset(attributes(change.style))
                _ = cn_mvaddstr(Int32(change.y), Int32(change.x), change.text)
            }
            _ = cn_attrset(cn_a_normal())
            _ = cn_refresh()
            state.previous = frame
        }
    }

    private func attributes(_ style: Style) -> attr_t {
        var value = cn_a_normal()
        if colours, style.colour != .default { value |= cn_color_pair(Int16(style.colour.rawValue)) }
        if style.bold { value |= cn_a_bold() }
        if style.dim { value |= cn_a_dim() }
        if style.reverse { value |= cn_a_reverse() }
        if style.underline { value |= cn_a_underline() }
        return value
    }

    func refreshSize() {
        state.withLock { state in
            guard !state.ended else { return }
            var rows: Int32 = 0
            var columns: Int32 = 0
            if cn_window_size(&rows, &columns) == 0 { resizeterm(rows, columns) }
            state.width = Int(cn_cols())
            state.height = Int(cn_lines())
            state.previous = nil
        }
    }

    func startReadingKeys(_ deliver: @escaping @Sendable ([Key]) -> Void) {
        let wake = wakePipe.read
        let done = keyThreadDone
        keyThreadStarted.withLock { $0 = true }
        let thread = Thread { [self] in
            defer { done.signal() }
            while true {
                var fds = [
                    pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&fds, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[1].revents != 0 { return }
                if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
                guard let keys = readAvailableKeys() else { return }
                if !keys.isEmpty { deliver(keys) }
            }
        }
        thread.name = "scenario-run keys"
        thread.start()
    }

    /// Drains the keys curses has (without blocking); nil once the screen has ended.
    private func readAvailableKeys() -> [Key]? {
        state.withLock { state -> [Key]? in
            guard !state.ended else { return nil }
            var keys: [Key] = []
            while true {
                var code: wint_t = 0
                let result = cn_get_wch(&code)
                if result == ERR { break }
                if let key = Self.decode(result: result, code: code) { keys.append(key) }
            }
            return keys
        }
    }

    private static func decode(result: Int32, code: wint_t) -> Key? {
        if result == KEY_CODE_YES {
            switch Int32(code) {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_ENTER: return .enter
            case KEY_BACKSPACE: return .backspace
            case KEY_RESIZE: return .resize
            default: return nil
            }
        }
        switch code {
        case 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 8, 127: return .backspace
        default:
            guard code >= 32, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            return .character(Character(scalar))
        }
    }

    func end() {
        if keyThreadStarted.withLock({ $0 }) {
            var byte: UInt8 = 1
            _ = write(wakePipe.write, &byte, 1)
            _ = keyThreadDone.wait(timeout: .now() + 1)
        }
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            curs_set(1)
            endwin()
        }
        close(wakePipe.read)
        close(wakePipe.write)
    }
}
