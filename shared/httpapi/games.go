package httpapi

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
)

// gameActor authenticates the caller of a game route and says whom it acts
// as (service.GameActor). Players are checked against the hashes in the
// game item (no extra read); officials and the organiser are looked up in
// their event.
func (a *API) gameActor(c *call, sg *games.Item) (game.Actor, Principal, error) {
	scope := service.GameScope(sg)
	known := func(s, id string) (credential, bool) {
		if s != scope {
			return credential{}, false
		}
		switch id {
		case sg.Link.Red:
			return credential{Principal{Scope: s, ID: id, Role: rolePlayer}, sg.Link.RedHash}, true
		case sg.Link.Black:
			return credential{Principal{Scope: s, ID: id, Role: rolePlayer}, sg.Link.BlackHash}, true
		}
		return credential{}, false
	}
	p, err := a.authenticate(c, known)
	if err != nil {
		return game.Actor{}, Principal{}, err
	}
	by, err := service.GameActor(sg, p)
	return by, p, err
}

// gameSeatCredential answers for the seat tokens of a standalone game.
func (a *API) gameSeatCredential(c *call, gid, id string) (credential, error) {
	sg, err := a.loadGame(c, gid)
	if err != nil {
		return credential{}, err
	}
	switch id {
	case sg.Link.Red:
		return credential{Principal{Scope: gid, ID: id, Role: rolePlayer}, sg.Link.RedHash}, nil
	case sg.Link.Black:
		return credential{Principal{Scope: gid, ID: id, Role: rolePlayer}, sg.Link.BlackHash}, nil
	}
	return credential{}, notFound("seat " + id)
}

// standaloneGameRules is a standalone game's rules as in names them
// (tournament.RuleNames.Standalone, G-6).
func standaloneGameRules(tc clock.Control, in *rulesJSON) (game.Rules, error) {
	return (*tournament.RuleNames)(in).Standalone(tc)
}

// POST /games — anyone: a standalone game; returns both seats' tokens once.
func (a *API) createGame(c *call) (int, any, error) {
	var in struct {
		FEN         string           `json:"fen"`
		TimeControl *timeControlJSON `json:"timeControl"`
		Rules       *rulesJSON       `json:"rules"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	tc, err := in.TimeControl.Control()
	if err != nil {
		return 0, nil, err
	}
	rules, err := standaloneGameRules(tc, in.Rules)
	if err != nil {
		return 0, nil, err
	}
	res, err := a.svc.CreateGame(c.ctx(), game.Setup{FEN: in.FEN, Control: tc, Rules: rules, StartMs: c.nowMs()})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, map[string]any{"id": res.Game.ID, "redToken": res.RedToken, "blackToken": res.BlackToken, "game": games.ViewOf(res.Game, c.nowMs(), 0)}, nil
}

// GET /games/{gid} — public; ?since=ply returns only the moves after ply.
func (a *API) getGame(c *call) (int, any, error) {
	since := 0
	if s := c.r.URL.Query().Get("since"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, nil, badRequest("invalid_query", "since: want a ply number ≥ 0")
		}
		since = n
	}
	want, err := notationQuery(c)
	if err != nil {
		return 0, nil, err
	}
	sg, err := a.loadGame(c, c.r.PathValue("gid"))
	if err != nil {
		return 0, nil, err
	}
	a.games.SettleOnRead(c.ctx(), sg, c.nowMs())
	sg, at := a.seenBy(c, sg, c.nowMs())
	out := games.ViewOf(sg, at, since)
	if want != nil {
		moves, err := sg.Game.MovesIn(want.n, out.Since)
		if err != nil {
			return 0, nil, err
		}
		want.Moves = moves
		out.Notation = &want.Notation
	}
	return http.StatusOK, out, nil
}

// moveNotations are the notations a game view writes its moves in
// (?notation=); the Chinese-character ones take ?script= (simplified by default).
var moveNotations = []string{"chinese", "wxf", "iccs", "yz3", "yz4"}

// notationWanted is a game view's ?notation= and ?script=, read.
type notationWanted struct {
	games.Notation
	n notation.Notation
}

// notationQuery reads ?notation= and ?script=: nil when no notation is asked for.
func notationQuery(c *call) (*notationWanted, error) {
	q := c.r.URL.Query()
	sc, ok := notation.ParseScript(q.Get("script"))
	if !ok {
		return nil, badRequest("invalid_query", `script: want "simplified" (the default) or "traditional"`)
	}
	name := q.Get("notation")
	chinese := name == "chinese" || name == "yz3" || name == "yz4"
	switch {
	case name == "" && q.Get("script") == "":
		return nil, nil
	case !slices.Contains(moveNotations, name):
		return nil, badRequest("invalid_query", "notation: want one of "+join(moveNotations))
	case !chinese && q.Get("script") != "":
		return nil, badRequest("invalid_query", "script: goes with notation=chinese, yz3 or yz4")
	}
	n, _ := notation.ByName(name)
	w := &notationWanted{Notation: games.Notation{Name: name}, n: notation.WithScript(n, sc)}
	if chinese {
		w.Script = sc.String()
	}
	return w, nil
}

// The game routes below decode their bodies and run the game command
// (shared/service/gameplay.go) through the game layer's write loop.

// playGame runs cmd on the path's game, the caller authenticated by gameActor.
func (a *API) playGame(c *call, cmd service.GameCommand) (int, any, error) {
	return a.mutateGame(c, a.svc.OnGame(c.ctx(), c.nowMs(), cmd))
}

type moveIn struct {
	Move  string `json:"move"`
	Ply   *int   `json:"ply"`
	Press bool   `json:"press"`
}

// POST /games/{gid}/moves — the player to move, or a scribe of that table.
func (a *API) submitMove(c *call) (int, any, error) {
	var in moveIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameMove(in))
}

// POST /games/{gid}/clock — press the clock (C-1).
func (a *API) pressClock(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GamePress{})
}

// sideIn lets a scribe say which player it acts for; players act for their own side.
type sideIn struct {
	Side string `json:"side"`
}

// POST /games/{gid}/arrive — a player takes its seat, or the table's scribe or
// an arbiter records that one has (C-6).
func (a *API) arrive(c *call) (int, any, error) {
	var in sideIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameArrive(in))
}

// POST /games/{gid}/draw — {action: offer|accept|decline} (D-1…D-5, G-4, G-5).
func (a *API) draw(c *call) (int, any, error) {
	var in struct {
		Action string `json:"action"`
		Side   string `json:"side"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameDraw(in))
}

// POST /games/{gid}/resign — the player resigns (G-2).
func (a *API) resign(c *call) (int, any, error) {
	var in sideIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameResign(in))
}

// POST /games/{gid}/claims — {kind: time|noCapture|ruling} (C-3, G-3, G-6).
func (a *API) claim(c *call) (int, any, error) {
	var in struct {
		Kind string `json:"kind"`
		Side string `json:"side"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameClaim(in))
}

// POST /games/{gid}/result — an over-the-board result, or with "correction":
// true a finished game's result corrected, saying why in "note" (O-1).
func (a *API) recordResult(c *call) (int, any, error) {
	var in struct {
		Result     string `json:"result"`
		Reason     string `json:"reason"`
		Correction bool   `json:"correction"`
		Note       string `json:"note"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameResult(in))
}

type rulingIn struct {
	Kind        string   `json:"kind"`
	Side        string   `json:"side"`
	Votes       []string `json:"votes"`
	Late        []string `json:"late"`
	Penalty     string   `json:"penalty"`
	RemainingMs *int64   `json:"remainingMs"`
	Result      string   `json:"result"`
	Reason      string   `json:"reason"`
	Note        string   `json:"note"`
}

// POST /games/{gid}/rulings — an official's ruling, kept in the game's log (O-1, O-2).
func (a *API) rule(c *call) (int, any, error) {
	var in rulingIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameRuling(in))
}

// GET /games/{gid}/record?format=pgn|fen|iccs|wxf|chinese|yz3|yz4 — public.
func (a *API) gameRecord(c *call) (int, any, error) {
	format, err := formatQuery(c, game.RecordFormats...) // pgn first: the default
	if err != nil {
		return 0, nil, err
	}
	if !slices.Contains(game.RecordFormats, format) {
		return 0, nil, badRequest("invalid_query", "format: want one of "+join(game.RecordFormats))
	}
	// Chinese characters are simplified unless ?script=traditional (N-4).
	switch script := c.r.URL.Query().Get("script"); {
	case script == "" || script == "simplified":
	case script != "traditional":
		return 0, nil, badRequest("invalid_query", `script: want "simplified" (the default) or "traditional"`)
	case format != "chinese" && format != "yz3" && format != "yz4":
		return 0, nil, badRequest("invalid_query", "script: goes with format=chinese, yz3 or yz4")
	default:
		format += "-traditional"
	}
	sg, err := a.loadGame(c, c.r.PathValue("gid"))
	if err != nil {
		return 0, nil, err
	}
	a.games.SettleOnRead(c.ctx(), sg, c.nowMs())
	info, err := a.svc.RecordInfo(c.ctx(), sg)
	if err != nil {
		return 0, nil, err
	}
	sg, at := a.seenBy(c, sg, c.nowMs())
	text, err := sg.Game.Record(at, format, info)
	if err != nil {
		return 0, nil, badRequest("invalid_query", "format: want one of "+join(game.RecordFormats))
	}
	ct := "text/plain; charset=utf-8"
	if format == "pgn" {
		ct = "application/x-chess-pgn; charset=utf-8"
	}
	return http.StatusOK, raw{contentType: ct, data: []byte(text)}, nil
}
