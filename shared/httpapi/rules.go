package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/rulebook"
)

// ruleOut is one rule as GET /rules shows it.
type ruleOut struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Source string `json:"source"`
}

type bookOut struct {
	Key   string `json:"key"`
	Seed  string `json:"seed"`
	Title string `json:"title"`
	About string `json:"about"`
}

func ruleView(r rulebook.Rule) ruleOut {
	return ruleOut{ID: r.ID, Title: r.Title, Text: r.Text, Source: r.Source}
}

// GET /rules — public: every rule id an error may cite, explained, with
// the rule books the sources name.
func (a *API) listRules(*call) (int, any, error) {
	books := make([]bookOut, len(rulebook.Books))
	for i, b := range rulebook.Books {
		books[i] = bookOut{Key: b.Key, Seed: b.Seed, Title: b.Title, About: b.About}
	}
	all := rulebook.All()
	rules := make([]ruleOut, len(all))
	for i, r := range all {
		rules[i] = ruleView(r)
	}
	return http.StatusOK, map[string]any{"books": books, "rules": rules}, nil
}

// GET /rules/{id} — public: one rule, as an error's "rule" field names it.
func (a *API) getRule(c *call) (int, any, error) {
	r, ok := rulebook.Lookup(c.r.PathValue("id"))
	if !ok {
		return 0, nil, notFound("rule " + quote(c.r.PathValue("id")))
	}
	return http.StatusOK, ruleView(r), nil
}
