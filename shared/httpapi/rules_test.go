package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/rulebook"
)

// GET /rules lists every rule with its source; GET /rules/{id} explains the
// rule a refusal names.
func TestRules_ServedAndCitedByRefusals(t *testing.T) {
	s := apitest.New(t)
	var all struct {
		Books []struct{ Key string }
		Rules []struct{ ID, Title, Text, Source string }
	}
	s.Get("/rules").Want(t, http.StatusOK).Decode(t, &all)
	if len(all.Rules) != len(rulebook.All()) || len(all.Books) != len(rulebook.Books) || all.Rules[0].ID != "B-1" {
		t.Fatalf("GET /rules: %d rules, %d books", len(all.Rules), len(all.Books))
	}
	// A refusal's rule, looked up.
	g := createGame(t, s, `{}`)
	r := s.Post("/games/"+g.ID+"/moves", g.RedToken, map[string]any{"move": "h0h5", "ply": 0}).Want(t, http.StatusUnprocessableEntity)
	id, _ := r.JSON()["error"].(map[string]any)["rule"].(string)
	var rule struct{ ID, Title, Text, Source string }
	s.Get("/rules/"+id).Want(t, http.StatusOK).Decode(t, &rule)
	if rule.ID != id || rule.Text == "" || rule.Source == "" {
		t.Fatalf("GET /rules/%s: %+v", id, rule)
	}
	if r := s.Get("/rules/Z-9"); r.Status != http.StatusNotFound || r.ErrorCode() != "not_found" {
		t.Fatalf("unknown rule: %d %s", r.Status, r.Body)
	}
}
