package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// recordRoutes take a PGN record as their body instead of JSON.
var recordRoutes = map[string]bool{"/games/import": true, "/games/{gid}/record": true}

// Every mutating route of the route table refuses malformed JSON and unknown
// fields (400), an oversize body (413) and a missing or garbage token (401), and a player
// token where an official or the organiser is needed (403) — and none of
// these changes anything.
func TestEveryMutatingRouteRefusesBadRequests(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	before := tableItems(t, s.Store)
	for _, rt := range httpapi.Routes {
		if rt.Method != http.MethodPost {
			continue
		}
		t.Run(rt.Path, func(t *testing.T) {
			path, token := f.path(rt.Path), f.token(rt.Who)
			send := func(token, body string) *apitest.Resp {
				return s.Do(apitest.Req{Method: "POST", Path: path, Token: token, Body: body, Invalid: true})
			}
			if recordRoutes[rt.Path] {
				// These take a PGN record, not JSON: a JSON body is 415, and
				// their limit is MaxImportBody.
				if r := send(token, `{"x":1}`); r.Status != http.StatusUnsupportedMediaType {
					t.Errorf("JSON body: %d %s", r.Status, r.Body)
				}
				big := strings.Repeat("1. h2e2 *\n", httpapi.MaxImportBody/10+1)
				if r := s.Do(apitest.Req{Method: "POST", Path: path, Token: token, Body: big, Invalid: true,
					Header: map[string]string{"Content-Type": "text/plain"}}); r.Status != http.StatusRequestEntityTooLarge {
					t.Errorf("oversize body: %d %s", r.Status, r.Body)
				}
			} else {
				if r := send(token, `{"x":`); r.Status != http.StatusBadRequest || r.ErrorCode() != "malformed_json" {
					t.Errorf("malformed JSON: %d %s", r.Status, r.Body)
				}
				if r := send(token, `{"noSuchField":1}`); r.Status != http.StatusBadRequest || r.ErrorCode() != "unknown_field" {
					t.Errorf("unknown field: %d %s", r.Status, r.Body)
				}
				limit := httpapi.MaxBody
				if rt.Path == "/tournaments/import" || rt.Path == "/tournaments/{tid}/mirror/changes" {
					limit = httpapi.MaxEventImportBody // an export of a large event
				}
				if r := send(token, `{"`+strings.Repeat("y", limit)+`":1}`); r.Status != http.StatusRequestEntityTooLarge {
					t.Errorf("oversize body: %d %s", r.Status, r.Body)
				}
			}
			if rt.Who.Has(httpapi.RoleAnyone) || rt.Who.Has(httpapi.RoleEntrant) {
				return
			}
			if r := send("", `{}`); r.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s", r.Status, r.Body)
			}
			if r := send("not-a-token", `{}`); r.Status != http.StatusUnauthorized {
				t.Errorf("garbage token: %d %s", r.Status, r.Body)
			}
			if !rt.Who.Has(httpapi.RolePlayer) && !rt.Who.Has(httpapi.RolePlayerToMove) {
				if r := send(f.ptoken, `{}`); r.Status != http.StatusForbidden {
					t.Errorf("a player's token on a %s route: %d %s", rt.Who, r.Status, r.Body)
				}
			}
		})
	}
	if after := tableItems(t, s.Store); after != before {
		t.Fatalf("refused requests changed the table: %d items before, %d after", before, after)
	}
}

// A scribe keeps only its own tables: on another table's game it is 403.
func TestScribeOfAnotherTableIsForbidden(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s) // the scribe keeps table 2; f.gid is table 1
	r := s.Post("/games/"+f.gid+"/moves", f.scribe, map[string]any{"move": "h2e2", "ply": 0})
	if r.Status != http.StatusForbidden {
		t.Fatalf("scribe of table 2 on table 1: %d %s", r.Status, r.Body)
	}
	var round struct {
		Pairings []struct {
			Table  int
			GameID string `json:"gameId"`
		}
	}
	s.Get("/tournaments/"+f.tid+"/rounds/1").Want(t, http.StatusOK).Decode(t, &round)
	for _, p := range round.Pairings {
		if p.Table == 2 {
			s.Post("/games/"+p.GameID+"/moves", f.scribe, map[string]any{"move": "h2e2", "ply": 0, "press": true}).Want(t, http.StatusOK)
		}
	}
}

// When DynamoDB throttles, the API answers 429 with Retry-After (the OpenAPI document).
func TestThrottledStoreIs429(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Busy","rounds":3}`)
	s.DB.Throttle(true)
	r := s.Get("/tournaments/" + ev.ID)
	s.DB.Throttle(false)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || r.ErrorCode() != "throttled" {
		t.Fatalf("throttled read: %d %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
}

// Every route names who may call it as a list of known roles: public,
// anyone and any token alone, token roles in any combination, none twice.
func TestRouteRoles(t *testing.T) {
	known := []httpapi.Role{httpapi.RolePublic, httpapi.RoleAnyone, httpapi.RoleAnyToken, httpapi.RoleOrganiser,
		httpapi.RoleArbiter, httpapi.RoleChiefArbiter, httpapi.RoleScribe, httpapi.RolePlayer, httpapi.RolePlayerToMove, httpapi.RoleCaptain, httpapi.RoleEntrant}
	for _, rt := range httpapi.Routes {
		if len(rt.Who) == 0 {
			t.Errorf("%s %s names no caller", rt.Method, rt.Path)
		}
		seen := map[httpapi.Role]bool{}
		for _, r := range rt.Who {
			if !slices.Contains(known, r) || seen[r] {
				t.Errorf("%s %s: role %q unknown or repeated", rt.Method, rt.Path, r)
			}
			seen[r] = true
			if alone := r == httpapi.RolePublic || r == httpapi.RoleAnyone || r == httpapi.RoleAnyToken || r == httpapi.RoleEntrant; alone && len(rt.Who) > 1 {
				t.Errorf("%s %s: %q combined with other roles (%s)", rt.Method, rt.Path, r, rt.Who)
			}
		}
	}
	for _, c := range []struct {
		who        httpapi.Roles
		prose      string
		needsToken bool
	}{
		{httpapi.Roles{httpapi.RolePlayerToMove, httpapi.RoleScribe}, "player to move, scribe", true},
		{httpapi.Roles{httpapi.RoleAnyToken}, "any token", true},
		{httpapi.Roles{httpapi.RolePublic}, "public", false},
		{httpapi.Roles{httpapi.RoleAnyone}, "anyone", false},
	} {
		if got := c.who.String(); got != c.prose {
			t.Errorf("String() = %q, want %q", got, c.prose)
		}
		if got := c.who.NeedsToken(); got != c.needsToken {
			t.Errorf("%s: NeedsToken() = %v, want %v", c.prose, got, c.needsToken)
		}
	}
}
