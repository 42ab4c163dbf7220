package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// No route answers 500 to odd input — bodies that are not objects, repeated
// keys, numbers past int64, NULs, path parameters that are not ids or
// numbers, odd query values, malformed tokens — and every response stays in
// the error model of the OpenAPI document.
func TestNoRouteAnswers500ToOddInput(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	bodies := []string{``, `null`, `[]`, `"x"`, `{}`, `{"a":1}{"b":2}`, `{"name":"x","name":"y"}`,
		`{"move":"h2e2","ply":-1}`, `{"ply":99999999999999999999}`, `{"move":"\u0000","ply":0}`, `{"round":-5}`,
		`{"kind":"clock","side":"red","remainingMs":-1}`, `{"action":"swapColours","table":99999}`,
		`{"lineup":["x","x"]}`, `{"fen":"` + strings.Repeat("9/", 300) + `"}`, `{"startsAt":"0001-01-01T00:00:00Z"}`}
	tokens := []string{f.org, f.ptoken, "", "a.b.c", "..", f.tid + "." + f.tid + ".x", "g.red.x"}
	for _, rt := range httpapi.Routes {
		for _, tok := range tokens {
			for _, b := range bodies {
				if rt.Method == http.MethodGet && b != "" {
					continue
				}
				r := s.Do(apitest.Req{Method: rt.Method, Path: f.path(rt.Path), Token: tok, Body: b, Invalid: true})
				if r.Status >= 500 {
					t.Errorf("%s %s token %.12q body %.40q: %d %s", rt.Method, rt.Path, tok, b, r.Status, r.Body)
				}
			}
		}
		for _, param := range []string{"{tid}", "{pid}", "{gid}", "{n}", "{mid}", "{oid}"} {
			if !strings.Contains(rt.Path, param) {
				continue
			}
			for _, odd := range []string{"0", "-1", "99999999999999999999", "%00", "%E2%80%AE", "t", "g", strings.Repeat("a", 1500)} {
				for _, q := range []string{"", "?since=-1", "?round=0", "?format=zz", "?view=teams", "?explain=1"} {
					p := f.path(strings.ReplaceAll(rt.Path, param, odd)) + q
					r := s.Do(apitest.Req{Method: rt.Method, Path: p, Token: f.org, Body: `{}`, Invalid: true})
					if r.Status >= 500 {
						t.Errorf("%s %s: %d %s", rt.Method, p, r.Status, r.Body)
					}
				}
			}
		}
	}
}
