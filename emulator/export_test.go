package emulator

// MatchREST exposes the REST router to the snapshot tests.
var MatchREST = matchREST
