// TUIRunner
