package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The fixtures the package's tests share, in one place: events and fields
// of players (newEvent, newField), paired rounds and their results (pair,
// finish, finishRound), team events (newTeamEvent), standalone games
// (createGame, table), a fixture holding one token of each role
// (newFixture), and readers of the stored items. A helper that serves one
// test file stays beside its test.

// meJSON is GET /me's answer.
type meJSON struct {
	Role, ID, Name string
	GameID         string `json:"gameId"`
	Colour         string
	Tournament     *struct{ ID, Name string }
	Player         *struct{ ID, Name string }
	Official       *struct{ ID, Role string }
	Tables         []int
	Games          []struct{ Table int }
	Team           *struct{ ID, Name string }
	CurrentGame    *meGameJSON `json:"currentGame"`
	NextGame       *meGameJSON `json:"nextGame"`
}

// meGameJSON is a game in GET /me's answer.
type meGameJSON struct {
	Round, Table     int
	GameID           string `json:"gameId"`
	Colour, Opponent string
	OpponentName     string `json:"opponentName"`
	RoundStatus      string `json:"roundStatus"`
	Result           *string
}

// me asks GET /me with token.
func me(t *testing.T, s *apitest.Server, token string) meJSON {
	t.Helper()
	var out meJSON
	s.Do(apitest.Req{Method: http.MethodGet, Path: "/me", Token: token}).Want(t, http.StatusOK).Decode(t, &out)
	return out
}

// status is the event's status as GET /tournaments/{tid} reads it.
func status(t *testing.T, s *apitest.Server, tid string) any {
	t.Helper()
	return s.Get("/tournaments/"+tid).Want(t, http.StatusOK).JSON()["status"]
}

// newGame is POST /games's answer.
type newGame struct {
	ID         string         `json:"id"`
	RedToken   string         `json:"redToken"`
	BlackToken string         `json:"blackToken"`
	Game       map[string]any `json:"game"`
}

// createGame creates a standalone game from a JSON body.
func createGame(t *testing.T, s *apitest.Server, body string) newGame {
	t.Helper()
	var g newGame
	s.Post("/games", "", body).Want(t, http.StatusCreated).Decode(t, &g)
	return g
}

// table drives one game over HTTP, tracking the ply as a client would.
type table struct {
	t   *testing.T
	s   *apitest.Server
	g   newGame
	ply int
}

// token is the seat token of side ("red" or "black").
func (tb *table) token(side string) string {
	if side == "red" {
		return tb.g.RedToken
	}
	return tb.g.BlackToken
}

// move plays move for side, pressing the clock with it when press.
func (tb *table) move(side, move string, press bool) map[string]any {
	tb.t.Helper()
	r := tb.s.Post("/games/"+tb.g.ID+"/moves", tb.token(side), map[string]any{"move": move, "ply": tb.ply, "press": press}).Want(tb.t, http.StatusOK)
	tb.ply++
	return r.JSON()
}

// post sends body to the game's route what with side's token.
func (tb *table) post(side, what string, body any) *apitest.Resp {
	tb.t.Helper()
	return tb.s.Post("/games/"+tb.g.ID+"/"+what, tb.token(side), body)
}

// state is the game as GET /games/{gid} shows it.
func (tb *table) state() map[string]any {
	tb.t.Helper()
	return tb.s.Get("/games/"+tb.g.ID).Want(tb.t, http.StatusOK).JSON()
}

// wantOver fails unless the game state st is over with result and reason.
func wantOver(t *testing.T, st map[string]any, result, reason string) {
	t.Helper()
	if st["status"] != "over" || st["result"] != result || st["reason"] != reason {
		t.Fatalf("game state %v %v %v, want over %s %s", st["status"], st["result"], st["reason"], result, reason)
	}
}

// registration writes a round's pairings as registration numbers "red-black".
func (f field) registration(r roundJSON) string {
	var out []string
	for _, p := range r.Pairings {
		out = append(out, fmt.Sprintf("%d-%d", indexOf(f.players, p.Red)+1, indexOf(f.players, p.Black)+1))
	}
	return strings.Join(out, " ")
}

// paired reports whether player id has a board in round r.
func paired(r roundJSON, id string) bool {
	for _, p := range r.Pairings {
		if p.Red == id || p.Black == id {
			return true
		}
	}
	for _, b := range r.Byes {
		if b == id {
			return true
		}
	}
	return false
}

// clearGamesReady rewrites round n's item with GamesReady false: the state a
// pairing interrupted before its games were created leaves behind.
func clearGamesReady(t *testing.T, s *apitest.Server, tid string, n int) {
	t.Helper()
	rec, err := s.Store.Get(t.Context(), store.TournamentPK(tid), store.RoundSK(n))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := storedRound(t, s, tid, n)
	r.GamesReady = false
	if err := s.Store.Put(t.Context(), service.EncodeItem(rec, &r)); err != nil {
		t.Fatal(err)
	}
}

// roundJSON is a round as the API shows it.
type roundJSON struct {
	Round    int `json:"round"`
	Pairings []struct {
		Table       int     `json:"table"`
		Red         string  `json:"red"`
		Black       string  `json:"black"`
		GameID      string  `json:"gameId"`
		Result      *string `json:"result"`
		Explanation *struct {
			ScoreGroup     int    `json:"scoreGroup"`
			Opponent       string `json:"opponent"`
			OpponentReason string `json:"opponentReason"`
			ColourReason   string `json:"colourReason"`
		} `json:"explanation"`
	} `json:"pairings"`
	Bye               *string                               `json:"bye"`
	Byes              []string                              `json:"byes"`
	ByeExplanation    *struct{ Opponent string }            `json:"byeExplanation"`
	UnfinishedAsDraws []string                              `json:"unfinishedAsDraws"`
	Audit             []struct{ Action, Detail, By string } `json:"audit"`
}

// field is an event with its registered players.
type field struct {
	ev      created
	players []created // in registration order
	byID    map[string]created
}

// newField creates an event with settings and registers n rated players.
func newField(t *testing.T, s *apitest.Server, settings string, n int) field {
	t.Helper()
	f := field{ev: newEvent(t, s, settings), byID: map[string]created{}}
	for i := range n {
		var p created
		s.Post("/tournaments/"+f.ev.ID+"/players", f.ev.Token, map[string]any{"name": fmt.Sprintf("Player %d", i+1), "rating": 2400 - 10*i}).
			Want(t, http.StatusCreated).Decode(t, &p)
		f.players = append(f.players, p)
		f.byID[p.ID] = p
	}
	return f
}

// pair asks for the next round with body and wants status.
func (f field) pair(t *testing.T, s *apitest.Server, body any, status int) roundJSON {
	t.Helper()
	var r roundJSON
	s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, body).Want(t, status).Decode(t, &r)
	return r
}

// finish writes the result item of a pairing as the game handlers do when a
// game ends: T#<tid> / X#<round>#<table>, created once. The item is written
// in its stored shape, the result as the API's string, so every test that
// finishes games this way also reads items stored as they always were.
func finish(t *testing.T, s *apitest.Server, tid string, round, table int, gid, red, black, result string) {
	t.Helper()
	doc, _ := json.Marshal(map[string]any{"Round": round, "Table": table, "GameID": gid, "Red": red, "Black": black, "Result": result, "Reason": "arbiter"})
	rec := &store.Record{PK: store.TournamentPK(tid), SK: store.ResultSK(round, table), Kind: store.KindResult, Doc: doc}
	if err := s.Store.Put(t.Context(), rec); err != nil {
		t.Fatalf("write result %d/%d: %v", round, table, err)
	}
}

// decide records game gid's result over the board through the game's own
// route, as the organiser or an arbiter (token) does: the writer path,
// which answers once the event's follow-up of the game's end has run — a
// knockout's round grown by the games the result calls for (S-3). finish
// writes the result item alone, and so grows nothing.
func decide(t *testing.T, s *apitest.Server, token, gid, result string) {
	t.Helper()
	s.Post("/games/"+gid+"/result", token, map[string]string{"result": result}).Want(t, http.StatusOK)
}

// results decide every table by a fixed rule so the test is reproducible:
// the lower registration number wins, every third table is drawn.
func (f field) finishRound(t *testing.T, s *apitest.Server, r roundJSON, skip map[int]bool) {
	t.Helper()
	for _, p := range r.Pairings {
		if skip[p.Table] || p.Result != nil {
			continue
		}
		res := "1-0"
		if indexOf(f.players, p.Black) < indexOf(f.players, p.Red) {
			res = "0-1"
		}
		if p.Table%3 == 0 {
			res = "1/2-1/2"
		}
		finish(t, s, f.ev.ID, r.Round, p.Table, p.GameID, p.Red, p.Black, res)
	}
}

// indexOf is the position of player id in ps, or -1.
func indexOf(ps []created, id string) int {
	for i, p := range ps {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// countItems counts the stored items whose partition or sort key starts with prefix.
func countItems(t *testing.T, s *apitest.Server, prefix string) int {
	t.Helper()
	recs, err := s.Store.Export(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if (strings.HasPrefix(r.SK, prefix) || strings.HasPrefix(r.PK, prefix)) && r.Kind != store.KindPart { // a document, not its parts
			n++
		}
	}
	return n
}

// pairedGame is a two-player event paired for round 1 without a start time.
type pairedGame struct {
	ev         created
	gid        string
	red, black created
	arb        string
}

// pairTwo creates an event of two players with settings and pairs round 1.
func pairTwo(t *testing.T, s *apitest.Server, settings string) pairedGame {
	t.Helper()
	pg := pairedGame{ev: newEvent(t, s, settings)}
	byID := map[string]created{}
	for _, name := range []string{"Lü Qin", "Xu Yinchuan"} {
		var p created
		s.Post("/tournaments/"+pg.ev.ID+"/players", pg.ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		byID[p.ID] = p
	}
	pg.arb = s.Post("/tournaments/"+pg.ev.ID+"/officials", pg.ev.Token, `{"role":"arbiter","name":"Chief"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	var round struct {
		Started  bool
		Pairings []struct {
			Red, Black string
			GameID     string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+pg.ev.ID+"/rounds", pg.ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
	if round.Started {
		t.Fatal("a round paired without startsAt says it has started")
	}
	p := round.Pairings[0]
	pg.gid, pg.red, pg.black = p.GameID, byID[p.Red], byID[p.Black]
	return pg
}

// fixture is one event with a paired round, so every route has real ids.
type fixture struct {
	tid, org, arb, scribe, pid, ptoken, gid string
	oid                                     string            // the arbiter
	tokens                                  map[string]string // player id → token
}

// newFixture makes an event of four players with an arbiter, a scribe of
// table 2 and round 1 paired and started.
func newFixture(t *testing.T, s *apitest.Server) fixture {
	t.Helper()
	ev := newEvent(t, s, `{"name":"Matrix Open","rounds":3}`)
	f := fixture{tid: ev.ID, org: ev.Token, tokens: map[string]string{}}
	for _, name := range []string{"A", "B", "C", "D"} {
		var p created
		s.Post("/tournaments/"+f.tid+"/players", f.org, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		f.tokens[p.ID] = p.Token
	}
	arb := s.Post("/tournaments/"+f.tid+"/officials", f.org, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()
	f.arb, f.oid = arb["token"].(string), arb["id"].(string)
	f.scribe = s.Post("/tournaments/"+f.tid+"/officials", f.org, `{"role":"scribe","name":"Scribe","tables":[2]}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	var round struct {
		Pairings []struct {
			Table      int
			Red, Black string
			GameID     string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+f.tid+"/rounds", f.org, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
	s.Post("/tournaments/"+f.tid+"/rounds/1/start", f.org, nil).Want(t, http.StatusOK)
	for _, p := range round.Pairings {
		if p.Table == 1 {
			f.gid, f.pid, f.ptoken = p.GameID, p.Red, f.tokens[p.Red]
		}
	}
	return f
}

// path fills a route pattern's ids with the fixture's.
func (f fixture) path(p string) string {
	return strings.NewReplacer("{tid}", f.tid, "{pid}", f.pid, "{gid}", f.gid, "{n}", "1", "{mid}", "maaaaaaaaaaaaaaaa", "{oid}", f.oid, "{fid}", "faaaaaaaaaaaaaaaa").Replace(p)
}

// token returns a token of the role a route asks for first.
// token is a token of the first of who's roles that the fixture holds.
func (f fixture) token(who httpapi.Roles) string {
	switch {
	case len(who) == 0:
		return ""
	case who[0] == httpapi.RoleOrganiser:
		return f.org
	case who[0] == httpapi.RoleArbiter:
		return f.arb
	case who[0] == httpapi.RolePlayer || who[0] == httpapi.RolePlayerToMove:
		return f.ptoken
	}
	return ""
}

// tableItems counts the stored items other than idempotency records.
func tableItems(t *testing.T, st *store.Store) int {
	t.Helper()
	recs, err := st.Export(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if r.Kind != "idempotency" {
			n++
		}
	}
	return n
}

// standingsJSON is GET /tournaments/{tid}/standings's answer.
type standingsJSON struct {
	Round    int
	Scoring  string
	Chain    []string
	Annulled []string
	Rows     []struct {
		Rank       int
		PlayerID   string
		Points     int
		Games      int
		Wins       int
		Draws      int
		Losses     int
		BlackGames int
		BlackWins  int
		Byes       int
		Shared     bool
		Playoff    bool
		Tiebreaks  []struct {
			Name  string
			Value float64
		}
	}
}

// storedLineups reads round n's lineup items straight from the store, in key
// order: the API shows lineups only in the response that writes them.
func storedLineups(t *testing.T, s *apitest.Server, tid string, n int) []tournament.Lineup {
	t.Helper()
	recs, err := s.Store.Query(t.Context(), store.TournamentPK(tid), store.LineupSK(n, ""), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []tournament.Lineup
	for _, rec := range recs {
		if rec.Version != 1 {
			t.Errorf("lineup %s written %d times, want once", rec.SK, rec.Version)
		}
		var l tournament.Lineup
		if err := json.Unmarshal(rec.Doc, &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// storedRound reads round n's item straight from the store, with its version.
func storedRound(t *testing.T, s *apitest.Server, tid string, n int) (tournament.Round, int64) {
	t.Helper()
	rec, err := s.Store.Get(t.Context(), store.TournamentPK(tid), store.RoundSK(n))
	if err != nil {
		t.Fatal(err)
	}
	var r tournament.Round
	if err := service.DecodeItem(rec, &r); err != nil {
		t.Fatal(err)
	}
	return r, rec.Version
}

// wantGame checks that the board game exists with these players' colours.
func wantGame(t *testing.T, s *apitest.Server, gid, red, black string) {
	t.Helper()
	var g struct{ Tournament struct{ Red, Black string } }
	s.Get("/games/"+gid).Want(t, http.StatusOK).Decode(t, &g)
	if g.Tournament.Red != red || g.Tournament.Black != black {
		t.Errorf("game %s: %s-%s, want %s-%s", gid, g.Tournament.Red, g.Tournament.Black, red, black)
	}
}

// rosterJSON is one member of a team's roster.
type rosterJSON struct {
	ID     string
	Name   string
	Rating int
	Board  int
}

// teamJSON is a team as the API shows it.
type teamJSON struct {
	ID          string
	Number      int
	Name        string
	Members     []rosterJSON
	Substitutes []rosterJSON
}

// teamCreated is POST /tournaments/{tid}/teams's answer.
type teamCreated struct {
	ID           string
	Token        string
	Team         teamJSON
	PlayerTokens []struct{ ID, Name, Token string }
}

// roster is the team's players in board order, members and substitutes.
func (tc teamCreated) roster() []string {
	var all []rosterJSON
	all = append(append(all, tc.Team.Members...), tc.Team.Substitutes...)
	slices.SortFunc(all, func(a, b rosterJSON) int { return a.Board - b.Board })
	ids := make([]string, len(all))
	for i, p := range all {
		ids[i] = p.ID
	}
	return ids
}

// matchJSON is a team match of a round.
type matchJSON struct {
	Match           string
	Number          int
	Home, Away      string
	Set             bool
	HomeBoardPoints *int
	AwayBoardPoints *int
	HomeMatchPoints *int
	AwayMatchPoints *int
}

// teamRoundJSON is a team event's round as the API shows it.
type teamRoundJSON struct {
	Round    int
	Pairings []struct {
		Table  int
		Red    string
		Black  string
		GameID string
		Match  string
		Board  int
		Result *string
	}
	Byes    []string
	Matches []matchJSON
}

// teamEvent is a team event with its registered teams.
type teamEvent struct {
	ev    created
	arb   string
	teams []teamCreated
	byID  map[string]teamCreated
}

// newTeamEvent creates a team event and enters n teams of boards members
// (and subs substitutes); member j of team i is rated 2000-100i-10j, so the
// roster is in entry order except where a test says otherwise.
func newTeamEvent(t *testing.T, s *apitest.Server, settings string, n, boards, subs int) *teamEvent {
	t.Helper()
	te := &teamEvent{ev: newEvent(t, s, settings), byID: map[string]teamCreated{}}
	te.arb = s.Post("/tournaments/"+te.ev.ID+"/officials", te.ev.Token, `{"role":"arbiter","name":"Chief"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	for i := range n {
		var members, substitutes []map[string]any
		for j := range boards + subs {
			p := map[string]any{"name": fmt.Sprintf("T%d P%d", i+1, j+1), "rating": 2000 - 100*i - 10*j}
			if j < boards {
				members = append(members, p)
			} else {
				substitutes = append(substitutes, p)
			}
		}
		body := map[string]any{"name": fmt.Sprintf("Team %d", i+1), "members": members}
		if subs > 0 {
			body["substitutes"] = substitutes
		}
		var tc teamCreated
		s.Post("/tournaments/"+te.ev.ID+"/teams", te.ev.Token, body).Want(t, http.StatusCreated).Decode(t, &tc)
		te.teams = append(te.teams, tc)
		te.byID[tc.ID] = tc
	}
	return te
}

// pair asks for the next team round with body and wants status.
func (te *teamEvent) pair(t *testing.T, s *apitest.Server, body any, status int) teamRoundJSON {
	t.Helper()
	var r teamRoundJSON
	s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, body).Want(t, status).Decode(t, &r)
	return r
}

// lineup submits a lineup for round n with token.
func (te *teamEvent) lineup(s *apitest.Server, n int, token string, body any) *apitest.Resp {
	return s.Post(fmt.Sprintf("/tournaments/%s/rounds/%d/lineups", te.ev.ID, n), token, body)
}

// result records a board's result as the arbiter does over the board.
func (te *teamEvent) result(t *testing.T, s *apitest.Server, gid, res string) {
	t.Helper()
	s.Post("/games/"+gid+"/result", te.arb, map[string]string{"result": res}).Want(t, http.StatusOK)
}

// wantError fails unless r is an error with status, code and rule.
func wantError(t *testing.T, r *apitest.Resp, status int, code, rule string) {
	t.Helper()
	r.Want(t, status)
	var e struct{ Error struct{ Code, Rule string } }
	r.Decode(t, &e)
	if e.Error.Code != code || e.Error.Rule != rule {
		t.Errorf("error %s (rule %s), want %s (rule %s): %s", e.Error.Code, e.Error.Rule, code, rule, r.Body)
	}
}

// created is an id with its token, as the API answers a creation.
type created struct {
	ID    string         `json:"id"`
	Token string         `json:"token"`
	T     map[string]any `json:"tournament"`
	P     map[string]any `json:"player"`
}

// newEvent creates an event from a JSON settings body.
func newEvent(t *testing.T, s *apitest.Server, body string) created {
	t.Helper()
	var c created
	s.Post("/tournaments", "", body).Want(t, http.StatusCreated).Decode(t, &c)
	return c
}
