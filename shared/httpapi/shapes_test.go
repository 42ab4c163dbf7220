package httpapi_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

func member(t *testing.T, r *apitest.Resp, name string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

func jsonBody(t *testing.T, r *apitest.Resp) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A creation nests the resource under its name beside id and token(s), and
// the resource is exactly what the GETs show: the event, a player, an
// official, a team, a standalone game, a round.
func TestShapes_CreationNestsWhatGetShows(t *testing.T) {
	s := apitest.New(t)
	ev := s.Post("/tournaments", "", `{"name":"Shapes","system":"swiss","rounds":3}`).Want(t, http.StatusCreated)
	tid, org := member(t, ev, "id").(string), member(t, ev, "token").(string)
	if got, want := member(t, ev, "tournament"), jsonBody(t, s.Get("/tournaments/"+tid).Want(t, http.StatusOK)); !reflect.DeepEqual(got, want) {
		t.Errorf("POST /tournaments .tournament %v\nGET /tournaments/{tid} %v", got, want)
	}
	var p *apitest.Resp
	for _, name := range []string{"A", "B"} {
		p = s.Post("/tournaments/"+tid+"/players", org, map[string]any{"name": name, "rating": 2000}).Want(t, http.StatusCreated)
	}
	list := member(t, s.Get("/tournaments/"+tid+"/players"), "players").([]any)
	if got := member(t, p, "player"); !reflect.DeepEqual(got, list[1]) || got.(map[string]any)["id"] != member(t, p, "id") {
		t.Errorf("POST players .player %v, GET players %v", got, list[1])
	}
	o := s.Post("/tournaments/"+tid+"/officials", org, `{"role":"scribe","name":"Li","tables":[1]}`).Want(t, http.StatusCreated)
	offs := member(t, s.Do(apitest.Req{Method: http.MethodGet, Path: "/tournaments/" + tid + "/officials", Token: org}), "officials").([]any)
	if got := member(t, o, "official"); !reflect.DeepEqual(got, offs[0]) {
		t.Errorf("POST officials .official %v, GET officials %v", got, offs[0])
	}
	r := s.Post("/tournaments/"+tid+"/rounds", org, `{"round":1}`).Want(t, http.StatusCreated)
	if got, want := jsonBody(t, r), jsonBody(t, s.Get("/tournaments/"+tid+"/rounds/1")); !reflect.DeepEqual(got, want) {
		t.Errorf("POST rounds %v\nGET rounds/1 %v", got, want)
	}
	g := s.Post("/games", "", `{}`).Want(t, http.StatusCreated)
	if got, want := member(t, g, "game"), jsonBody(t, s.Get("/games/"+member(t, g, "id").(string))); !reflect.DeepEqual(got, want) {
		t.Errorf("POST /games .game %v\nGET /games/{gid} %v", got, want)
	}
	lg := s.Post("/tournaments", "", `{"name":"League","system":"roundRobin","teams":true,"boards":1}`).Want(t, http.StatusCreated)
	lid, lorg := member(t, lg, "id").(string), member(t, lg, "token").(string)
	tm := s.Post("/tournaments/"+lid+"/teams", lorg, `{"name":"Dragons","members":[{"name":"Li"}]}`).Want(t, http.StatusCreated)
	teams := member(t, s.Get("/tournaments/"+lid+"/teams"), "teams").([]any)
	if got := member(t, tm, "team"); !reflect.DeepEqual(got, teams[0]) {
		t.Errorf("POST teams .team %v, GET teams %v", got, teams[0])
	}

	// The bye and the eliminated come with their names (S-7, S-4).
	odd := newField(t, s, `{"name":"Odd","system":"swiss","rounds":3}`, 3)
	var rd struct {
		Bye     *string
		ByeName *string `json:"byeName"`
	}
	s.Post("/tournaments/"+odd.ev.ID+"/rounds", odd.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &rd)
	if rd.Bye == nil || rd.ByeName == nil || *rd.ByeName != odd.byID[*rd.Bye].P["name"] {
		t.Errorf("bye %v, byeName %v", rd.Bye, rd.ByeName)
	}
}
