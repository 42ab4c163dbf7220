// Package rulebook explains every rule id the code, the tests and the API's
// refusals cite (B-6, P-11, …): a title, an explanation in this project's
// own words, and the section of the rule book it comes from. GET /rules
// serves it and RULES.md is rendered from it, so a refusal's "rule" can be
// looked up without anything outside the repository.
//
// RuleError, the refusal every core package (game, team, tournament) returns
// when a rule decides, lives here too: it imports only the standard library,
// so every package that refuses can name the rule that refused.
package rulebook

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Rule is one rule: its id, a short title, what it means here, and where in
// the rule books it comes from.
type Rule struct {
	// ID is the letter of the rule's family and its number, e.g. "P-11".
	ID string
	// Title names the rule in a few words.
	Title string
	// Text explains the rule as xqtour applies it.
	Text string
	// Source is the rule book and section the rule comes from (see Books).
	Source string
}

// Book is one of the rule texts the rules come from.
type Book struct {
	// Key is how a Source names the book.
	Key string
	// Seed is the number code comments cite the book by ("seed 001 §14.1").
	Seed string
	// Title is the book's title.
	Title string
	// About says what the book covers.
	About string
}

// Books are the rule texts behind the rules, by the key a Source uses.
var Books = []Book{
	{"RB", "000", "中国象棋竞赛规则 (reformed edition)", "the reformed rule book: the board and moves (指规), game ends, draws, notation, clocks, competition formats, withdrawals, officials and penalties, and the arbiter's ruling on repeated positions (请裁制度)"},
	{"GR", "001", "象棋比赛通则 §10–14", "the general competition rules: competition systems (§10), team formats (§11), colours (§12), scoring (§13), ranking, tie-breaks, withdrawals and byes (§14)"},
	{"A3", "002", "象棋竞赛规则 (2011), appendix 3: 积分编排制定位编排法", "the Swiss pairing method: principles (part 一), then the first round, who is paired first, the choice of opponent, colours and undoing pairs (part 二), and the 8×8 team all-play-all table"},
}

// Families names the rule families by their letter.
var Families = []struct{ Letter, Name string }{
	{"B", "Board, pieces and moves"}, {"G", "How a game ends"}, {"D", "Draw offers"},
	{"C", "Clocks and time controls"}, {"N", "Notation"}, {"S", "Competition systems"},
	{"T", "Teams"}, {"K", "Scoring"}, {"R", "Ranking and tie-breaks"},
	{"P", "Swiss pairing (定位编排法)"}, {"O", "Officials and roles"}, {"E", "Entries, check-in and championships"}, {"L", "Later"},
}

// Lookup returns the rule with the id.
func Lookup(id string) (Rule, bool) {
	i := slices.IndexFunc(rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return rules[i], true
}

// All returns every rule, by family in the order of Families, then by number.
func All() []Rule {
	out := slices.Clone(rules)
	family := func(id string) int {
		return slices.IndexFunc(Families, func(f struct{ Letter, Name string }) bool { return strings.HasPrefix(id, f.Letter+"-") })
	}
	number := func(id string) int {
		n, _ := strconv.Atoi(id[strings.IndexByte(id, '-')+1:])
		return n
	}
	slices.SortFunc(out, func(a, b Rule) int {
		if d := family(a.ID) - family(b.ID); d != 0 {
			return d
		}
		return number(a.ID) - number(b.ID)
	})
	return out
}

// IDPattern matches a rule id as code and messages cite it.
var IDPattern = regexp.MustCompile(`\b[BGDCNSTKRPOEL]-[0-9]{1,2}\b`)

// Markdown renders the whole rule book as a markdown document.
func Markdown() []byte {
	var b bytes.Buffer
	b.WriteString("# xqtour rules\n\n")
	b.WriteString("Every rule id the code, the tests and the API's errors cite, explained in our own words,\n")
	b.WriteString("with the section of the rule book it comes from. An error's `rule` field names one of these;\n")
	b.WriteString("`GET /rules/{id}` serves the same text. This file is generated from `shared/rulebook`\n")
	b.WriteString("(`go test ./shared/rulebook -update`); edit the table there, not this file.\n\n")
	b.WriteString("## The rule books\n\n")
	for _, bk := range Books {
		fmt.Fprintf(&b, "- **%s** (cited in code comments as seed %s) — %s: %s.\n", bk.Key, bk.Seed, bk.Title, bk.About)
	}
	all := All()
	for _, f := range Families {
		fmt.Fprintf(&b, "\n## %s — %s\n", f.Letter, f.Name)
		for _, r := range all {
			if strings.HasPrefix(r.ID, f.Letter+"-") {
				fmt.Fprintf(&b, "\n### %s %s\n\n%s\n\n*Source: %s.*\n", r.ID, r.Title, r.Text, r.Source)
			}
		}
	}
	return b.Bytes()
}
