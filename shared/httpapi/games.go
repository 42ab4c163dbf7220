package httpapi

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// gameActor authenticates the caller of a game route and says whom it acts
// as. Players are checked against the hashes in the game item (no extra
// read); officials and the organiser are looked up in their event.
func (a *API) gameActor(c *call, sg *games.Item) (game.Actor, Principal, error) {
	scope := sg.Link.Tournament
	if scope == "" {
		scope = sg.ID
	}
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
	if p.Scope != scope {
		return game.Actor{}, p, forbidden("this token belongs to another event or game")
	}
	switch {
	case p.Role == rolePlayer && p.ID == sg.Link.Red:
		return game.PlayerOf(xiangqi.Red), p, nil
	case p.Role == rolePlayer && p.ID == sg.Link.Black:
		return game.PlayerOf(xiangqi.Black), p, nil
	case p.Role == roleScribe:
		if len(p.Tables) > 0 && !slices.Contains(p.Tables, sg.Link.Table) {
			return game.Actor{}, p, forbidden(fmt.Sprintf("this scribe does not keep table %d", sg.Link.Table))
		}
		return game.Actor{Role: game.Scribe}, p, nil
	case p.Role == roleArbiter:
		return game.Actor{Role: game.Arbiter}, p, nil
	case p.Role == roleChief:
		return game.Actor{Role: game.ChiefArbiter}, p, nil
	case p.Role == roleOrganiser:
		return game.Actor{Role: game.Organiser}, p, nil
	}
	return game.Actor{}, p, forbidden("a " + p.Role + " of another game may not act on this one")
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

// standaloneGameRules reads a standalone game's rule options
// (tournament.StandaloneRules decides their defaults, G-6).
func standaloneGameRules(tc clock.Control, in *rulesJSON) (game.Rules, error) {
	r, err := in.rules()
	if err != nil {
		return game.Rules{}, err
	}
	return tournament.StandaloneRules(tc, r, in != nil && in.Repetition != "")
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
	tc, err := controlOf(in.TimeControl)
	if err != nil {
		return 0, nil, err
	}
	rules, err := standaloneGameRules(tc, in.Rules)
	if err != nil {
		return 0, nil, err
	}
	res, err := a.svc.CreateGame(c.ctx(), game.Setup{FEN: in.FEN, Control: tc, Rules: rules, StartMs: c.nowMs()})
	if err != nil {
		var re *game.RuleError
		if errors.As(err, &re) && re.Code == game.CodeInvalidArgument {
			return 0, nil, &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: "fen: " + re.Message, Rule: re.Rule}
		}
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
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if in.Move == "" || in.Ply == nil {
			return badRequest("invalid_field", "move and ply are required (ply: the moves already played as the client saw them)")
		}
		if sg.Game.Ply() >= service.LimitOf(service.CapMoves).Max && sg.Game.Status() == game.Playing {
			return service.OverLimit(service.CapMoves) // the players may still agree a draw, resign or claim (G-3)
		}
		if by.Role == game.Scribe {
			by.Side = sg.Game.Position().SideToMove()
		}
		return sg.Game.Move(c.nowMs(), by, in.Move, *in.Ply, in.Press)
	})
}

// POST /games/{gid}/clock — press the clock (C-1).
func (a *API) pressClock(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		return sg.Game.Press(c.nowMs(), by)
	})
}

// sideIn lets a scribe say which player it acts for; players act for their own side.
type sideIn struct {
	Side string `json:"side"`
}

func (s sideIn) apply(by *game.Actor) error {
	if by.Role != game.Scribe {
		if s.Side != "" && s.Side != by.Side.String() {
			return forbidden("a player acts only for its own side")
		}
		return nil
	}
	switch s.Side {
	case "red":
		by.Side = xiangqi.Red
	case "black":
		by.Side = xiangqi.Black
	default:
		return badRequest("invalid_field", `side: a scribe names the player it acts for ("red" or "black")`)
	}
	return nil
}

// POST /games/{gid}/arrive — a player takes its seat, or the table's scribe or
// an arbiter records that one has (C-6): late arrival counts from the round's
// start, and an event that records arrivals forfeits a side absent at its limit.
func (a *API) arrive(c *call) (int, any, error) {
	var in sideIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if by.Role == game.Arbiter || by.Role == game.ChiefArbiter {
			side, err := parseColor("side", in.Side)
			if err != nil {
				return err
			}
			by.Side = side
		} else if err := in.apply(&by); err != nil {
			return err
		}
		return sg.Game.Arrive(c.nowMs(), by)
	})
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
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		var do func(*game.Game, int64, game.Actor) error
		switch in.Action {
		case "offer":
			do = (*game.Game).OfferDraw
		case "accept":
			do = (*game.Game).AcceptDraw
		case "decline":
			do = (*game.Game).DeclineDraw
		default:
			return badRequest("invalid_field", `action: want "offer", "accept" or "decline"`)
		}
		if err := (sideIn{Side: in.Side}).apply(&by); err != nil {
			return err
		}
		return do(sg.Game, c.nowMs(), by)
	})
}

// POST /games/{gid}/resign — the player resigns (G-2).
func (a *API) resign(c *call) (int, any, error) {
	var in sideIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if by.Role != game.Player {
			return forbidden("only a player resigns")
		}
		if err := in.apply(&by); err != nil {
			return err
		}
		return sg.Game.Resign(c.nowMs(), by)
	})
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
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		kind, ok := game.ParseClaimKind(in.Kind)
		if !ok {
			return badRequest("invalid_field", `kind: want "time", "noCapture" or "ruling"`)
		}
		if err := (sideIn{Side: in.Side}).apply(&by); err != nil {
			return err
		}
		return sg.Game.Claim(c.nowMs(), by, kind)
	})
}

// POST /games/{gid}/result — an arbiter, the board's scribe or the organiser
// records an over-the-board result without moves; with "correction": true an
// arbiter or the organiser corrects a finished game's result, saying why in
// "note" — logged with who, when, the result before and after (O-1).
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
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if err := game.MayRecordResult(by); err != nil { // before the fields: a player learns nothing of them
			return err
		}
		if len(sg.Game.Log()) >= service.LimitOf(service.CapGameLog).Max {
			return service.OverLimit(service.CapGameLog)
		}
		res, err := result.Parse(in.Result)
		if err != nil {
			return badRequest("invalid_field", `result: want "1-0", "0-1", "1/2-1/2", "+-", "-+" or "0-0"`)
		}
		why, err := parseReason(in.Reason)
		if err != nil {
			return err
		}
		if !in.Correction {
			if in.Note != "" {
				return badRequest("invalid_field", `note: goes with "correction": true`)
			}
			err := sg.Game.RecordResult(c.nowMs(), by, res, why)
			if re := (*game.RuleError)(nil); errors.As(err, &re) && re.Code == game.CodeGameOver {
				r, w := sg.Game.Result()
				re.Message = fmt.Sprintf("the game already has a result, %v (%v); to correct it, an arbiter or the organiser sends "+
					`POST /games/%s/result with {"result": …, "reason": …, "correction": true, "note": "why"}`, r, w, sg.ID)
			}
			return err
		}
		if strings.TrimSpace(in.Note) == "" {
			return badRequest("invalid_field", "note: a correction says why (it is kept in the game's log with who, when, before and after)")
		}
		return sg.Game.CorrectResult(c.nowMs(), by, res, why, in.Note)
	})
}

// parseReason reads a result's reason; "" is the default (arbiter).
func parseReason(s string) (game.Reason, error) {
	if s == "" {
		return game.NoReason, nil
	}
	why, ok := game.ParseReason(s)
	if !ok {
		return why, badRequest("invalid_field", "reason: unknown reason "+quote(s)+"; want one of "+join(game.ReasonNames()))
	}
	return why, nil
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

func parseColor(field, s string) (xiangqi.Color, error) {
	switch s {
	case "red":
		return xiangqi.Red, nil
	case "black":
		return xiangqi.Black, nil
	}
	return 0, badRequest("invalid_field", field+`: want "red" or "black"`)
}

func (in rulingIn) ruling() (game.Ruling, error) {
	kind, ok := game.ParseRulingKind(in.Kind)
	if !ok {
		return game.Ruling{}, badRequest("invalid_field", `kind: want "repetition", "foul", "penalty", "clock", "result", "lateForfeit" or "droppedPiece"`)
	}
	r := game.Ruling{Kind: kind, Note: in.Note}
	var err error
	if in.Side != "" {
		if r.Side, err = parseColor("side", in.Side); err != nil {
			return r, err
		}
	}
	switch kind {
	case game.RulingRepetition:
		if len(in.Votes) != 3 {
			return r, badRequest("invalid_field", "votes: three arbiters each name the side mainly responsible (G-6)")
		}
		for i, v := range in.Votes {
			if r.Votes[i], err = parseColor(fmt.Sprintf("votes[%d]", i), v); err != nil {
				return r, err
			}
		}
	case game.RulingPenalty:
		if r.Penalty, ok = game.ParsePenaltyKind(in.Penalty); !ok {
			return r, badRequest("invalid_field", `penalty: want "warning", "loss" or "expulsion" (O-2)`)
		}
	case game.RulingClock:
		if in.RemainingMs == nil {
			return r, badRequest("invalid_field", "remainingMs: a clock correction sets the remaining time (C-5)")
		}
		r.RemainingMs = *in.RemainingMs
	case game.RulingResult:
		if r.Result, err = result.Parse(in.Result); err != nil {
			return r, badRequest("invalid_field", `result: want "1-0", "0-1", "1/2-1/2", "+-", "-+" or "0-0"`)
		}
		if r.Reason, err = parseReason(in.Reason); err != nil {
			return r, err
		}
	case game.RulingDroppedPiece:
		if in.Side == "" {
			return r, badRequest("invalid_field", `side: the side that dropped a piece, "red" or "black" (O-2)`)
		}
	case game.RulingLateForfeit:
		if len(in.Late) == 0 {
			return r, badRequest("invalid_field", `late: the late sides, e.g. ["black"] (C-6)`)
		}
		for i, s := range in.Late {
			col, err := parseColor(fmt.Sprintf("late[%d]", i), s)
			if err != nil {
				return r, err
			}
			r.Late[col] = true
		}
	}
	return r, nil
}

// POST /games/{gid}/rulings — an official's ruling, kept in the game's log;
// the game says which official may give which (O-1, O-2).
func (a *API) rule(c *call) (int, any, error) {
	var in rulingIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if err := game.MayRule(by); err != nil { // before the fields
			return err
		}
		if len(sg.Game.Log()) >= service.LimitOf(service.CapGameLog).Max {
			return service.OverLimit(service.CapGameLog)
		}
		r, err := in.ruling()
		if err != nil {
			return err
		}
		if r.Kind == game.RulingPenalty && r.Penalty == game.Expulsion && sg.Link.Tournament != "" &&
			(by.Role == game.ChiefArbiter || by.Role == game.Organiser) {
			// Checked before the game changes: a refused expulsion logs nothing.
			if sg.Also, err = a.svc.ExpulsionItems(c.ctx(), sg, by, r); err != nil {
				return err
			}
		}
		return sg.Game.Rule(c.nowMs(), by, r)
	})
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
	info := game.RecordInfo{Red: "Red", Black: "Black"}
	if i := sg.Link.Info; i != nil {
		info = game.RecordInfo{Event: i.Event, Site: i.Site, Date: i.Date, Round: i.Round, Red: i.Red, Black: i.Black}
		if info.Red == "" {
			info.Red = "Red"
		}
		if info.Black == "" {
			info.Black = "Black"
		}
	}
	if sg.Link.Tournament != "" {
		names, err := a.svc.NamesOf(c.ctx(), sg)
		if err != nil {
			return 0, nil, err
		}
		// A name whose item is gone leaves what the link says.
		info.Event, info.Red, info.Black = cmp.Or(names.Event, info.Event), cmp.Or(names.Red, info.Red), cmp.Or(names.Black, info.Black)
		info.Round = strconv.Itoa(sg.Link.Round)
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
