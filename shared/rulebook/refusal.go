package rulebook

// RuleError is a request a rule refuses. It is the one refusal type of the
// core: game, team and tournament each name it RuleError (an alias, so a
// refusal from any of them is this type) and the HTTP layer maps it to its
// status in one table. Code is a stable id safe to store and to return to
// clients (the package that refuses declares its codes), Rule the id of the
// rule in this book that decided it (empty when no single rule did), Message
// a sentence for people, and Err the engine's or notation's error behind
// the refusal, if any. Params names, for a client that says the refusal in
// its reader's own words, what Message says in English: the tables, rounds
// and player numbers it concerns and the request option that would get past
// it (JSON values: numbers, strings, lists and objects of them); never an
// internal id, so a page can show every value as it is.
type RuleError struct {
	Code    string
	Rule    string
	Message string
	Params  map[string]any
	Err     error
}

// Error returns "code: message (rule)", or "code: message" when no rule is
// named.
func (e *RuleError) Error() string {
	if e.Rule == "" {
		return e.Code + ": " + e.Message
	}
	return e.Code + ": " + e.Message + " (" + e.Rule + ")"
}

// Unwrap returns the error behind the refusal, if any.
func (e *RuleError) Unwrap() error { return e.Err }

// FieldError is a request whose field a rule refuses: which field, why, and
// which rule decided it (empty when none did). It is the core's one
// field refusal (tournament names it FieldError too, an alias) so that the
// game layer can refuse a field without importing the tournament package
// and, with it, every pairing engine.
type FieldError struct {
	Field, Message, Rule string
}

// Error names the field, the problem and the rule.
func (e *FieldError) Error() string {
	if e.Rule != "" {
		return e.Field + ": " + e.Message + " (" + e.Rule + ")"
	}
	return e.Field + ": " + e.Message
}
