package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Game commands: what the game routes ask of one game (moves, the clock,
// draws, claims, results, rulings, votes, adjournment, the scoresheet),
// each run inside the game layer's one write loop (games.Store.Mutate),
// which reads the game, authenticates the caller as an actor, and saves
// what changed, redoing the command on the game as it then is when another
// write came first. Their fields are as the request sent them: they are
// checked only after the caller is, so a stranger learns nothing of what a
// body should hold.

// GameCommand is one command on a game.
type GameCommand interface {
	// Apply changes x.Item's game for x.By at x.Now, or refuses.
	Apply(x GameTxn) error
}

// GameTxn is what a game command works on: the game read for this attempt
// and who acts on it, at the request's instant.
type GameTxn struct {
	Ctx  context.Context
	S    *Service
	Item *games.Item
	By   game.Actor
	Now  int64
}

// OnGame is cmd as the operation of the game layer's write loop
// (games.Store.Mutate's op).
func (s *Service) OnGame(ctx context.Context, now int64, cmd GameCommand) func(*games.Item, game.Actor) error {
	return func(it *games.Item, by game.Actor) error {
		return cmd.Apply(GameTxn{Ctx: ctx, S: s, Item: it, By: by, Now: now})
	}
}

// GameScope is the scope of the tokens that act on game it: its event's,
// or a standalone game's own.
func GameScope(it *games.Item) string {
	if it.Link.Tournament != "" {
		return it.Link.Tournament
	}
	return it.ID
}

// GameActor is whom caller c acts as on game it (O-1): a player for its
// seat of this game, a scribe at a table it keeps, an arbiter, the chief
// arbiter or the organiser of the game's event. A token of another event
// or game, a scribe of other tables and a player of another game are
// refused.
func GameActor(it *games.Item, c Caller) (game.Actor, error) {
	if c.Scope != GameScope(it) {
		return game.Actor{}, command.Forbid("this token belongs to another event or game")
	}
	switch {
	case c.Role == Player && c.ID == it.Link.Red:
		return game.PlayerOf(xiangqi.Red), nil
	case c.Role == Player && c.ID == it.Link.Black:
		return game.PlayerOf(xiangqi.Black), nil
	case c.Role == Scribe:
		if len(c.Tables) > 0 && !slices.Contains(c.Tables, it.Link.Table) {
			return game.Actor{}, command.Forbid(fmt.Sprintf("this scribe does not keep table %d", it.Link.Table))
		}
		return game.Actor{Role: game.Scribe}, nil
	case c.Role == Arbiter:
		return game.Actor{Role: game.Arbiter}, nil
	case c.Role == ChiefArbiter:
		return game.Actor{Role: game.ChiefArbiter}, nil
	case c.Role == Organiser:
		return game.Actor{Role: game.Organiser}, nil
	}
	return game.Actor{}, command.Forbid("a " + c.Role + " of another game may not act on this one")
}

// GameMove is a move by the player to move, or by the table's scribe for
// that player; Ply is the moves already played as the client saw them.
type GameMove struct {
	Move  string
	Ply   *int
	Press bool
}

// Apply implements GameCommand.
func (m GameMove) Apply(x GameTxn) error {
	if m.Move == "" || m.Ply == nil {
		return command.BadRequest("invalid_field", "move and ply are required (ply: the moves already played as the client saw them)")
	}
	g := x.Item.Game
	if g.Ply() >= LimitOf(CapMoves).Max && g.Status() == game.Playing {
		return OverLimit(CapMoves) // the players may still agree a draw, resign or claim (G-3)
	}
	by := x.By
	if by.Role == game.Scribe {
		by.Side = g.Position().SideToMove()
	}
	return g.Move(x.Now, by, m.Move, *m.Ply, m.Press)
}

// GamePress presses the clock (C-1).
type GamePress struct{}

// Apply implements GameCommand.
func (GamePress) Apply(x GameTxn) error { return x.Item.Game.Press(x.Now, x.By) }

// actsFor is by acting for side: a player only for its own, a scribe for
// the player it names.
func actsFor(by *game.Actor, side string) error {
	if by.Role != game.Scribe {
		if side != "" && side != by.Side.String() {
			return command.Forbid("a player acts only for its own side")
		}
		return nil
	}
	switch side {
	case "red":
		by.Side = xiangqi.Red
	case "black":
		by.Side = xiangqi.Black
	default:
		return command.BadRequest("invalid_field", `side: a scribe names the player it acts for ("red" or "black")`)
	}
	return nil
}

// colourOf reads a side a request names in field.
func colourOf(field, s string) (xiangqi.Color, error) {
	switch s {
	case "red":
		return xiangqi.Red, nil
	case "black":
		return xiangqi.Black, nil
	}
	return 0, command.BadRequest("invalid_field", field+`: want "red" or "black"`)
}

// GameArrive is a player taking its seat, or the table's scribe or an
// arbiter recording that one has (C-6): late arrival counts from the
// round's start, and an event that records arrivals forfeits a side absent
// at its limit.
type GameArrive struct{ Side string }

// Apply implements GameCommand.
func (a GameArrive) Apply(x GameTxn) error {
	by := x.By
	if by.Role == game.Arbiter || by.Role == game.ChiefArbiter {
		side, err := colourOf("side", a.Side)
		if err != nil {
			return err
		}
		by.Side = side
	} else if err := actsFor(&by, a.Side); err != nil {
		return err
	}
	return x.Item.Game.Arrive(x.Now, by)
}

// GameDraw offers, accepts or declines a draw (D-1…D-5, G-4, G-5).
type GameDraw struct{ Action, Side string }

// Apply implements GameCommand.
func (d GameDraw) Apply(x GameTxn) error {
	var do func(*game.Game, int64, game.Actor) error
	switch d.Action {
	case "offer":
		do = (*game.Game).OfferDraw
	case "accept":
		do = (*game.Game).AcceptDraw
	case "decline":
		do = (*game.Game).DeclineDraw
	default:
		return command.BadRequest("invalid_field", `action: want "offer", "accept" or "decline"`)
	}
	by := x.By
	if err := actsFor(&by, d.Side); err != nil {
		return err
	}
	return do(x.Item.Game, x.Now, by)
}

// GameResign is a player resigning (G-2).
type GameResign struct{ Side string }

// Apply implements GameCommand.
func (r GameResign) Apply(x GameTxn) error {
	by := x.By
	if by.Role != game.Player {
		return command.Forbid("only a player resigns")
	}
	if err := actsFor(&by, r.Side); err != nil {
		return err
	}
	return x.Item.Game.Resign(x.Now, by)
}

// GameClaim is a claim of time, of the no-capture limit or for a ruling
// (C-3, G-3, G-6).
type GameClaim struct{ Kind, Side string }

// Apply implements GameCommand.
func (cl GameClaim) Apply(x GameTxn) error {
	kind, ok := game.ParseClaimKind(cl.Kind)
	if !ok {
		return command.BadRequest("invalid_field", `kind: want "time", "noCapture" or "ruling"`)
	}
	by := x.By
	if err := actsFor(&by, cl.Side); err != nil {
		return err
	}
	return x.Item.Game.Claim(x.Now, by, kind)
}

// resultFormats is the refusal of a result the request misspells.
const resultFormats = `result: want "1-0", "0-1", "1/2-1/2", "+-", "-+" or "0-0"`

// reasonOf reads a result's reason; "" is the default (arbiter).
func reasonOf(s string) (game.Reason, error) {
	if s == "" {
		return game.NoReason, nil
	}
	why, ok := game.ParseReason(s)
	if !ok {
		return why, command.BadRequest("invalid_field", fmt.Sprintf("reason: unknown reason %q; want one of %s", s, strings.Join(game.ReasonNames(), ", ")))
	}
	return why, nil
}

// GameResult is an over-the-board result recorded without moves by an
// arbiter, the board's scribe or the organiser; with Correction an arbiter
// or the organiser corrects a finished game's result, saying why in Note,
// logged with who, when, the result before and after (O-1).
type GameResult struct {
	Result, Reason string
	Correction     bool
	Note           string
}

// Apply implements GameCommand.
func (gr GameResult) Apply(x GameTxn) error {
	g, by := x.Item.Game, x.By
	if err := game.MayRecordResult(by); err != nil { // before the fields: a player learns nothing of them
		return err
	}
	if len(g.Log()) >= LimitOf(CapGameLog).Max {
		return OverLimit(CapGameLog)
	}
	res, err := result.Parse(gr.Result)
	if err != nil {
		return command.BadRequest("invalid_field", resultFormats)
	}
	why, err := reasonOf(gr.Reason)
	if err != nil {
		return err
	}
	if !gr.Correction {
		if gr.Note != "" {
			return command.BadRequest("invalid_field", `note: goes with "correction": true`)
		}
		err := g.RecordResult(x.Now, by, res, why)
		if re := (*game.RuleError)(nil); errors.As(err, &re) && re.Code == game.CodeGameOver {
			r, w := g.Result()
			re.Message = fmt.Sprintf("the game already has a result, %v (%v); to correct it, an arbiter or the organiser sends "+
				`POST /games/%s/result with {"result": …, "reason": …, "correction": true, "note": "why"}`, r, w, x.Item.ID)
		}
		return err
	}
	if strings.TrimSpace(gr.Note) == "" {
		return command.BadRequest("invalid_field", "note: a correction says why (it is kept in the game's log with who, when, before and after)")
	}
	return g.CorrectResult(x.Now, by, res, why, gr.Note)
}

// GameRuling is an official's ruling, kept in the game's log; the game says
// which official may give which (O-1, O-2). An expulsion by the chief
// arbiter or the organiser in an event also reaches the player's event
// (Service.ExpulsionItems), written with the game.
type GameRuling struct {
	Kind        string
	Side        string
	Votes       []string
	Late        []string
	Penalty     string
	RemainingMs *int64
	Result      string
	Reason      string
	Note        string
}

// Apply implements GameCommand.
func (in GameRuling) Apply(x GameTxn) error {
	sg, by := x.Item, x.By
	if err := game.MayRule(by); err != nil { // before the fields
		return err
	}
	if len(sg.Game.Log()) >= LimitOf(CapGameLog).Max {
		return OverLimit(CapGameLog)
	}
	r, err := in.ruling()
	if err != nil {
		return err
	}
	if r.Kind == game.RulingPenalty && r.Penalty == game.Expulsion && sg.Link.Tournament != "" &&
		(by.Role == game.ChiefArbiter || by.Role == game.Organiser) {
		// Checked before the game changes: a refused expulsion logs nothing.
		if sg.Also, err = x.S.ExpulsionItems(x.Ctx, sg, by, r); err != nil {
			return err
		}
	}
	return sg.Game.Rule(x.Now, by, r)
}

// ruling reads the ruling's fields, each kind the ones it needs.
func (in GameRuling) ruling() (game.Ruling, error) {
	kind, ok := game.ParseRulingKind(in.Kind)
	if !ok {
		return game.Ruling{}, command.BadRequest("invalid_field", `kind: want "repetition", "foul", "penalty", "clock", "result", "lateForfeit" or "droppedPiece"`)
	}
	r := game.Ruling{Kind: kind, Note: in.Note}
	var err error
	if in.Side != "" {
		if r.Side, err = colourOf("side", in.Side); err != nil {
			return r, err
		}
	}
	switch kind {
	case game.RulingRepetition:
		if len(in.Votes) != 3 {
			return r, command.BadRequest("invalid_field", "votes: three arbiters each name the side mainly responsible (G-6)")
		}
		for i, v := range in.Votes {
			if r.Votes[i], err = colourOf(fmt.Sprintf("votes[%d]", i), v); err != nil {
				return r, err
			}
		}
	case game.RulingPenalty:
		if r.Penalty, ok = game.ParsePenaltyKind(in.Penalty); !ok {
			return r, command.BadRequest("invalid_field", `penalty: want "warning", "loss" or "expulsion" (O-2)`)
		}
	case game.RulingClock:
		if in.RemainingMs == nil {
			return r, command.BadRequest("invalid_field", "remainingMs: a clock correction sets the remaining time (C-5)")
		}
		r.RemainingMs = *in.RemainingMs
	case game.RulingResult:
		if r.Result, err = result.Parse(in.Result); err != nil {
			return r, command.BadRequest("invalid_field", resultFormats)
		}
		if r.Reason, err = reasonOf(in.Reason); err != nil {
			return r, err
		}
	case game.RulingDroppedPiece:
		if in.Side == "" {
			return r, command.BadRequest("invalid_field", `side: the side that dropped a piece, "red" or "black" (O-2)`)
		}
	case game.RulingLateForfeit:
		if len(in.Late) == 0 {
			return r, command.BadRequest("invalid_field", `late: the late sides, e.g. ["black"] (C-6)`)
		}
		for i, s := range in.Late {
			col, err := colourOf(fmt.Sprintf("late[%d]", i), s)
			if err != nil {
				return r, err
			}
			r.Late[col] = true
		}
	}
	return r, nil
}

// GameVote is an arbiter's sealed vote on a pending repetition (G-6; 000
// ch.8 请裁制度): the game's view says only how many are in and who has
// voted until the third arrives; then the ruling is made.
type GameVote struct{ Side, Note string }

// Apply implements GameCommand.
func (v GameVote) Apply(x GameTxn) error {
	g, by := x.Item.Game, x.By
	if by.Role == game.Player || by.Role == game.Scribe {
		return command.Forbid("only an arbiter votes on a repetition (O-1, G-6)")
	}
	if len(g.Log()) >= LimitOf(CapGameLog).Max {
		return OverLimit(CapGameLog)
	}
	side, err := colourOf("side", v.Side)
	if err != nil {
		return err
	}
	return g.Vote(x.Now, by, side, v.Note)
}

// GameAdjourn seals the next move and adjourns the game (C-7, 封棋): the
// player to move, the table's scribe for that player, or an official.
type GameAdjourn struct {
	Move string
	Ply  *int
}

// Apply implements GameCommand.
func (a GameAdjourn) Apply(x GameTxn) error {
	if a.Move == "" || a.Ply == nil {
		return command.BadRequest("invalid_field", "move and ply are required: the sealed move, and the moves already played as the client saw them (C-7)")
	}
	by := x.By
	if by.Role == game.Scribe {
		by.Side = x.Item.Game.Position().SideToMove()
	}
	return x.Item.Game.Adjourn(x.Now, by, a.Move, *a.Ply)
}

// GameResume resumes an adjourned game: the sealed move is played and the
// opponent's clock runs (C-7, 续赛).
type GameResume struct{}

// Apply implements GameCommand.
func (GameResume) Apply(x GameTxn) error { return x.Item.Game.Resume(x.Now, x.By) }

// GameSign is one line of the finished game's scoresheet (O-3). Strokes are
// the drawn signature, each stroke a flat list x0,y0,x1,y1,… of integers
// 0…game.SignatureBox.
type GameSign struct {
	Line    string
	Name    string
	Refused bool
	Strokes [][]int
}

// Apply implements GameCommand.
func (s GameSign) Apply(x GameTxn) error {
	line, ok := game.ParseSignatory(s.Line)
	if !ok {
		return signBad(`line: want "red", "black", "scribe" or "closed"`)
	}
	strokes, err := parseStrokes(s.Strokes)
	if err != nil {
		return err
	}
	return x.Item.Game.Sign(x.Now, x.By, game.Signature{Line: line, Name: s.Name, Refused: s.Refused, Strokes: strokes})
}

// signBad refuses a signature's malformed field (400 invalid_field, O-3).
func signBad(msg string) *command.Error {
	return &command.Error{Kind: command.Invalid, Code: "invalid_field", Message: msg, Rule: "O-3"}
}

// parseStrokes reads the flat coordinate lists of a drawn signature.
func parseStrokes(in [][]int) ([][][2]uint8, error) {
	if len(in) > game.MaxSignatureStroke {
		return nil, signBad(fmt.Sprintf("strokes: at most %d", game.MaxSignatureStroke))
	}
	var out [][][2]uint8
	total := 0
	for i, st := range in {
		if len(st) < 2 || len(st)%2 != 0 {
			return nil, signBad(fmt.Sprintf("strokes[%d]: x,y pairs, at least one point", i))
		}
		total += len(st) / 2
		if total > game.MaxSignaturePoints {
			return nil, signBad(fmt.Sprintf("strokes: at most %d points in all", game.MaxSignaturePoints))
		}
		pts := make([][2]uint8, len(st)/2)
		for j := range pts {
			x, y := st[2*j], st[2*j+1]
			if x < 0 || y < 0 || x > game.SignatureBox || y > game.SignatureBox {
				return nil, signBad(fmt.Sprintf("strokes[%d]: coordinates 0…%d", i, game.SignatureBox))
			}
			pts[j] = [2]uint8{uint8(x), uint8(y)}
		}
		out = append(out, pts)
	}
	return out, nil
}
