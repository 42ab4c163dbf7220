package games

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/rulebook"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// View is GET /games/{gid} (the OpenAPI document's Game): the contract's first fields, then the details a
// client or arbiter needs (clock periods, repetition facts, fouls, the link).
type View struct {
	ID         string    `json:"id"`
	FEN        string    `json:"fen"`
	StartFEN   string    `json:"startFen"`
	SideToMove string    `json:"sideToMove"`
	Ply        int       `json:"ply"`
	Since      int       `json:"since"`
	Moves      []string  `json:"moves"`
	Notation   *Notation `json:"notation,omitempty"`
	LegalMoves []string  `json:"legalMoves"`
	InCheck    bool      `json:"inCheck"`
	// Started is false until the round starts (the organiser's or an
	// arbiter's start, or its start time passing): no clock runs before.
	Started       bool       `json:"started"`
	RoundStartsAt *string    `json:"roundStartsAt"`
	Clocks        Clocks     `json:"clocks"`
	DrawOffer     DrawOffer  `json:"drawOffer"`
	Repetition    Repetition `json:"repetition"`
	Fouls         ColourInts `json:"fouls"`
	NoCapture     struct {
		Moves int `json:"moves"`
		Limit int `json:"limit"`
	} `json:"noCapture"`
	TimeControl TimeControl `json:"timeControl"`
	Status      string      `json:"status"`
	Result      *string     `json:"result"`
	Reason      *string     `json:"reason"`
	EndedAt     *string     `json:"endedAt,omitempty"`
	Tournament  *Placed     `json:"tournament,omitempty"`
	// Corrections are the result corrections, oldest first: who, when,
	// the result before and after, and why (O-1).
	Corrections []Correction `json:"corrections"`
	// Discipline is every foul, penalty and dropped piece with who, when and why (O-2).
	Discipline []Discipline `json:"discipline"`
	// Adjourned is the adjournment (C-7), null while the game is not adjourned.
	Adjourned *Adjourned `json:"adjourned"`
	// Signatures are the scoresheet's signed lines (O-3), and Signed says
	// all three are: until then the record is awaiting signatures.
	Signatures []Signature `json:"signatures"`
	Signed     bool        `json:"signed"`
	Version    uint64      `json:"version"`
}

// ColourInts is a count per side.
type ColourInts struct {
	Red   int `json:"red"`
	Black int `json:"black"`
}

// Clocks is both clocks as of the view's instant: the remaining times, which runs, and each face.
type Clocks struct {
	RedMs         int64   `json:"redMs"`
	BlackMs       int64   `json:"blackMs"`
	Running       *string `json:"running"`
	Untimed       bool    `json:"untimed"`
	AwaitingPress bool    `json:"awaitingPress"`
	Red           Face    `json:"red"`
	Black         Face    `json:"black"`
}

// Face is one side's clock: time left and used, moves made and due in its period.
type Face struct {
	RemainingMs int64 `json:"remainingMs"`
	UsedMs      int64 `json:"usedMs"`
	Moves       int   `json:"moves"`
	Period      int   `json:"period"`
	MovesDue    int   `json:"movesDue"`
	Flagged     bool  `json:"flagged"`
}

// DrawOffer is the pending draw offer, if any, and the offers made and left (D-1, D-4).
type DrawOffer struct {
	Pending bool    `json:"pending"`
	By      *string `json:"by"`
	Ply     int     `json:"ply"`
	Made    int     `json:"made"`
	Left    int     `json:"left"`
}

// Repetition is the repetition facts the arbiter rules on (G-6): the rule set, the cycles, who checks or chases perpetually.
type Repetition struct {
	Rule           string     `json:"rule"`
	Cycles         int        `json:"cycles"`
	CycleLength    int        `json:"cycleLength"`
	Warning        bool       `json:"warning"`
	Requested      bool       `json:"requested"`
	RequestedBy    *string    `json:"requestedBy"`
	PerpetualCheck ColourBool `json:"perpetualCheck"`
	PerpetualChase ColourBool `json:"perpetualChase"`
	CouldBreak     ColourBool `json:"couldBreak"`
	BreakingMove   ColourMove `json:"breakingMove"`
	// Votes is the sealed vote on a pending repetition, null when none is
	// under way; Ruling is the repetition ruling once made.
	Votes  *Votes            `json:"votes"`
	Ruling *RepetitionRuling `json:"ruling"`
}

// ColourMove is a move per side in ICCS, null when there is none.
type ColourMove struct {
	Red   *string `json:"red"`
	Black *string `json:"black"`
}

// ColourBool is a flag per side.
type ColourBool struct {
	Red   bool `json:"red"`
	Black bool `json:"black"`
}

// Placed is an event game's place in its event: round, table and the players as the game was made.
type Placed struct {
	ID          string `json:"id"`
	Round       int    `json:"round"`
	Table       int    `json:"table"`
	Red         string `json:"red"`
	Black       string `json:"black"`
	RedName     string `json:"redName"`
	BlackName   string `json:"blackName"`
	RedNumber   int    `json:"redNumber"`
	BlackNumber int    `json:"blackNumber"`
}

// Adjourned is an adjourned game's state (C-7): since when and whose
// move is sealed; the move itself is shown only when the game resumes.
type Adjourned struct {
	At       string `json:"at"`
	SealedBy string `json:"sealedBy"`
}

// Correction is one result correction in the game's log.
type Correction struct {
	At     string     `json:"at"`
	By     string     `json:"by"`
	ByID   string     `json:"byId,omitempty"`
	Before ResultView `json:"before"`
	After  ResultView `json:"after"`
	Note   string     `json:"note"`
}

// ResultView is a result and its reason; both null for a game that had none.
type ResultView struct {
	Result *string `json:"result"`
	Reason *string `json:"reason"`
}

func resultView(r result.Result, why game.Reason) ResultView {
	if r == result.None {
		return ResultView{}
	}
	return ResultView{Result: strp(r.String()), Reason: strp(why.String())}
}

func correctionsView(log []game.LogEntry) []Correction {
	out := []Correction{}
	for _, e := range log {
		if e.Ruling.Kind != game.RulingResult {
			continue
		}
		out = append(out, Correction{At: RFC3339(e.At), By: e.By.Role.String(), ByID: e.By.ID,
			Before: resultView(e.Ruling.Before, e.Ruling.BeforeReason), After: resultView(e.Ruling.Result, e.Ruling.Reason), Note: e.Ruling.Note})
	}
	return out
}

// Notation is the moves (from since) in the notation a client asked for.
type Notation struct {
	Name   string   `json:"name"`
	Script string   `json:"script,omitempty"`
	Moves  []string `json:"moves"`
}

func strp(s string) *string { return &s }

func faceView(f clock.FaceReading) Face {
	return Face{RemainingMs: f.RemainingMs, UsedMs: f.UsedMs, Moves: f.Moves, Period: f.Period, MovesDue: f.MovesDue, Flagged: f.Flagged}
}

// ViewOf renders the game as of now; moves before since are left out so a
// polling client fetches only what is new.
func ViewOf(sg *Item, now int64, since int) View {
	v := sg.Game.View(now)
	since = min(since, len(v.Moves))
	out := View{
		ID: sg.ID, FEN: v.FEN, StartFEN: v.StartFEN, SideToMove: v.SideToMove.String(), Ply: v.Ply, Since: since,
		Moves: v.Moves[since:], LegalMoves: v.LegalMoves, InCheck: v.InCheck, Started: v.Started, TimeControl: TimeControlOf(v.Control),
		Fouls: ColourInts{Red: v.Fouls[xiangqi.Red], Black: v.Fouls[xiangqi.Black]}, Status: v.Status.String(), Version: v.Version,
	}
	if out.LegalMoves == nil {
		out.LegalMoves = []string{}
	}
	out.Clocks = Clocks{
		RedMs: v.Clock.Faces[clock.Red].RemainingMs, BlackMs: v.Clock.Faces[clock.Black].RemainingMs,
		Untimed: v.Clock.Untimed, AwaitingPress: v.AwaitingPress,
		Red: faceView(v.Clock.Faces[clock.Red]), Black: faceView(v.Clock.Faces[clock.Black]),
	}
	if v.StartsAt != 0 {
		out.RoundStartsAt = strp(RFC3339(v.StartsAt))
	}
	if v.Status == game.Playing && v.Started && v.Clock.Running != clock.None {
		out.Clocks.Running = strp(xiangqi.Color(v.Clock.Running).String())
	}
	out.DrawOffer = DrawOffer{Pending: v.Draw.Pending, Ply: v.Draw.Ply, Made: v.Draw.Made, Left: v.Draw.Left}
	if v.Draw.Pending {
		out.DrawOffer.By = strp(v.Draw.By.String())
	}
	r := v.Repetition
	out.Repetition = Repetition{Rule: r.Rule.String(), Cycles: r.Cycles, CycleLength: r.CycleLength, Warning: r.Warning, Requested: r.Requested,
		PerpetualCheck: ColourBool{r.PerpetualCheck[xiangqi.Red], r.PerpetualCheck[xiangqi.Black]},
		PerpetualChase: ColourBool{r.PerpetualChase[xiangqi.Red], r.PerpetualChase[xiangqi.Black]},
		CouldBreak:     ColourBool{r.CouldBreak[xiangqi.Red], r.CouldBreak[xiangqi.Black]}}
	if m := r.BreakingMove[xiangqi.Red]; m != "" {
		out.Repetition.BreakingMove.Red = strp(m)
	}
	if m := r.BreakingMove[xiangqi.Black]; m != "" {
		out.Repetition.BreakingMove.Black = strp(m)
	}
	out.Repetition.Votes, out.Repetition.Ruling = votesOf(sg.Game)
	if r.Requested {
		out.Repetition.RequestedBy = strp(r.RequestedBy.String())
	}
	out.NoCapture.Moves, out.NoCapture.Limit = v.NoCaptureMoves, v.NoCaptureLimit
	if v.Status == game.Over {
		out.Result, out.Reason = strp(v.Result.String()), strp(v.Reason.String())
		out.EndedAt = strp(RFC3339(v.EndedAt))
	}
	out.Corrections = correctionsView(sg.Game.Log())
	out.Discipline = DisciplineOf(sg.Game.Log())
	if v.Adjourned {
		out.Adjourned = &Adjourned{At: RFC3339(v.AdjournedAt), SealedBy: v.AdjournedBy.String()}
	}
	out.Signatures, out.Signed = signaturesOf(v), v.Signed
	if sg.Link.Tournament != "" {
		l := sg.Link
		out.Tournament = &Placed{ID: l.Tournament, Round: l.Round, Table: l.Table, Red: l.Red, Black: l.Black,
			RedName: l.RedName, BlackName: l.BlackName, RedNumber: l.RedNumber, BlackNumber: l.BlackNumber}
	}
	return out
}

// Discipline is one line of a game's discipline record (O-2, 000 ch.3
// 裁判长 7: a written report of every penalty): a foul, a warning or heavier
// penalty, a dropped piece, or a draw offer the rules made a loss — who
// gave it, when, against which side and why.
type Discipline struct {
	At      string `json:"at"`
	By      string `json:"by"`
	ByID    string `json:"byId,omitempty"`
	Kind    string `json:"kind"`
	Penalty string `json:"penalty,omitempty"`
	Side    string `json:"side"`
	Note    string `json:"note"`
}

// disciplinary reports whether a log entry belongs in the discipline record.
func disciplinary(k game.RulingKind) bool {
	return k == game.RulingFoul || k == game.RulingPenalty || k == game.RulingDroppedPiece || k == game.RulingForbiddenOffer
}

// DisciplineOf is the discipline record of a game's log, oldest first.
func DisciplineOf(log []game.LogEntry) []Discipline {
	out := []Discipline{}
	for _, e := range log {
		if !disciplinary(e.Ruling.Kind) {
			continue
		}
		d := Discipline{At: RFC3339(e.At), By: e.By.Role.String(), ByID: e.By.ID, Kind: e.Ruling.Kind.String(),
			Side: e.Ruling.Side.String(), Note: e.Ruling.Note}
		if e.Ruling.Kind == game.RulingPenalty {
			d.Penalty = e.Ruling.Penalty.String()
		}
		out = append(out, d)
	}
	return out
}

// TimeControl is the OpenAPI document's TimeControl: a preset name or
// {"periods": [{"moves", "ms"}], "incrementMs"}.
type TimeControl struct {
	Name        string   `json:"name,omitempty"`
	Periods     []Period `json:"periods"`
	IncrementMs int64    `json:"incrementMs"`
}

// Period is one period of a time control: its moves (0: the rest of the game) and time.
type Period struct {
	Moves int   `json:"moves"`
	Ms    int64 `json:"ms"`
}

// UnmarshalJSON accepts a preset name or an object, refusing unknown fields.
func (t *TimeControl) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`)) {
		return json.Unmarshal(b, &t.Name)
	}
	type plain TimeControl
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode((*plain)(t))
}

// Control is the validated clock.Control t names: nil is untimed (an
// event's own default is the event's, tournament.EventControl), a name
// without periods a preset (C-2), else the periods and increment.
func (t *TimeControl) Control() (clock.Control, error) {
	if t == nil {
		c, _ := clock.Preset("untimed")
		return c, nil
	}
	if t.Name != "" && t.Periods == nil {
		c, ok := clock.Preset(t.Name)
		if !ok {
			return clock.Control{}, &rulebook.FieldError{Field: "timeControl", Message: "unknown preset " + strconv.Quote(t.Name) + " (want one of " + strings.Join(clock.PresetNames(), ", ") + ")", Rule: "C-2"}
		}
		return c, nil
	}
	periods := make([]clock.Period, len(t.Periods))
	for i, p := range t.Periods {
		periods[i] = clock.Period{Moves: p.Moves, Ms: p.Ms}
	}
	return clock.NewControl(periods, t.IncrementMs)
}

// TimeControlOf is a time control as the answers show it.
func TimeControlOf(c clock.Control) TimeControl {
	out := TimeControl{Name: c.Name, IncrementMs: c.IncrementMs, Periods: []Period{}}
	for _, p := range c.Periods {
		out.Periods = append(out.Periods, Period{Moves: p.Moves, Ms: p.Ms})
	}
	return out
}

// RFC3339 is an instant (Unix ms) as every answer writes it: RFC 3339 in UTC.
func RFC3339(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano) }

// JSON renders a stored game item (as the table, its stream or the local
// change feed carries it) as of nowMs, exactly as an anonymous GET
// /games/{gid} answers it — under its event's broadcast delay, the game as
// it stood the delay ago: the live updates push this body so a client
// handles one shape, and the socket, which carries no credentials, is public.
func JSON(rec *store.Record, nowMs int64) (json.RawMessage, error) {
	sg, err := Of(rec)
	if err != nil {
		return nil, err
	}
	seen, at := sg.Public(nowMs)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as writeJSON encodes responses
	if err := enc.Encode(ViewOf(seen, at, 0)); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Brief is one game's change as the round channel tells it: where the
// game is played, its last move and position, its clocks and, once over,
// its result — a board of a broadcast page, without the game's history.
type Brief struct {
	// Kind is "move" when the last thing that happened was a move (pressed
	// with it or not yet pressed), "result" once the game is over, "clock"
	// for anything else (a press, an offer, a ruling, a correction).
	Kind       string
	Game       string
	Tournament string
	Round      int
	Table      int
	Ply        int
	Move       string // the last move in ICCS; "" before the first
	FEN        string
	Status     string
	Result     *string
	Reason     *string
	// Clocks is the view's clocks object, read at the instant the public
	// sees the game at.
	Clocks json.RawMessage
	// DelayMs is the event's broadcast delay: the public sees the game as
	// it stood that long ago.
	DelayMs int64
}

// BriefOf is the public's brief of a stored game item at nowMs (under a
// broadcast delay, of the game as it stood the delay ago). An item of a
// standalone game has no round: ok is false.
func BriefOf(rec *store.Record, nowMs int64) (b Brief, ok bool, err error) {
	sg, err := Of(rec)
	if err != nil || sg.Link.Tournament == "" {
		return Brief{}, false, err
	}
	seen, at := sg.Public(nowMs)
	v := ViewOf(seen, at, seen.Game.Ply())
	clocks, err := json.Marshal(v.Clocks)
	if err != nil {
		return Brief{}, false, err
	}
	b = Brief{Game: sg.ID, Tournament: sg.Link.Tournament, Round: sg.Link.Round, Table: sg.Link.Table, Ply: v.Ply, FEN: v.FEN,
		Status: v.Status, Result: v.Result, Reason: v.Reason, Clocks: clocks, DelayMs: sg.DelayMs(), Kind: briefKind(seen.Game)}
	if moves := seen.Game.Moves(); len(moves) > 0 {
		b.Move = moves[len(moves)-1].String()
	}
	return b, true, nil
}

// briefKind says what the last change of g was, from the game alone (the
// stream carries only the new image): over is a result; a last move not yet
// pressed, or one whose press started the running clock, is a move.
func briefKind(g *game.Game) string {
	if g.Status() == game.Over {
		return "result"
	}
	times := g.MoveTimes()
	if len(times) == 0 {
		return "clock"
	}
	c := g.Clock()
	if g.AwaitingPress() || (c.Running != clock.None && c.Since == times[len(times)-1]) {
		return "move"
	}
	return "clock"
}

// Votes is the sealed vote's state on a pending repetition: how many of
// the three are in and which officials cast them, never their sides.
type Votes struct {
	Cast   int      `json:"cast"`
	Needed int      `json:"needed"`
	By     []string `json:"by"`
}

// Vote is one arbiter's vote, shown once the ruling is made.
type Vote struct {
	At   string `json:"at"`
	By   string `json:"by"`
	ByID string `json:"byId,omitempty"`
	Side string `json:"side"`
	Note string `json:"note,omitempty"`
}

// RepetitionRuling is the repetition ruling in the game's log: the three
// verdicts, the side that lost, who ruled and, when the arbiters voted from
// their own devices, each vote.
type RepetitionRuling struct {
	At    string   `json:"at"`
	By    string   `json:"by"`
	ByID  string   `json:"byId,omitempty"`
	Votes []string `json:"votes"`
	Loser string   `json:"loser"`
	Note  string   `json:"note,omitempty"`
	Cast  []Vote   `json:"cast"`
}

// votesOf reads the sealed votes and the ruling from the game's log.
func votesOf(g *game.Game) (*Votes, *RepetitionRuling) {
	cast := g.SealedVotes()
	var ruling *RepetitionRuling
	for _, e := range g.Log() {
		if e.Ruling.Kind != game.RulingRepetition {
			continue
		}
		r := &RepetitionRuling{At: RFC3339(e.At), By: e.By.Role.String(), ByID: e.By.ID, Note: e.Ruling.Note, Cast: []Vote{}}
		red := 0
		for _, v := range e.Ruling.Votes {
			r.Votes = append(r.Votes, v.String())
			if v == xiangqi.Red {
				red++
			}
		}
		r.Loser = "black"
		if red >= 2 {
			r.Loser = "red"
		}
		ruling = r
	}
	if ruling != nil {
		for _, e := range cast {
			ruling.Cast = append(ruling.Cast, Vote{At: RFC3339(e.At), By: e.By.Role.String(), ByID: e.By.ID, Side: e.Ruling.Side.String(), Note: e.Ruling.Note})
		}
		return nil, ruling
	}
	if g.Status() != game.PendingRuling && len(cast) == 0 {
		return nil, nil
	}
	out := &Votes{Cast: len(cast), Needed: game.RepetitionVoters, By: []string{}}
	for _, e := range cast {
		out.By = append(out.By, e.By.ID)
	}
	return out, nil
}

// Signature is one signed line of the scoresheet in the game view.
type Signature struct {
	Line    string `json:"line"`
	Name    string `json:"name"`
	At      string `json:"at"`
	By      string `json:"by"`
	Refused bool   `json:"refused"`
	SVG     string `json:"svg,omitempty"`
}

// signaturesOf is the scoresheet's signed lines, in the order signed.
func signaturesOf(v game.View) []Signature {
	out := make([]Signature, 0, len(v.Signatures))
	for _, s := range v.Signatures {
		out = append(out, Signature{Line: s.Line.String(), Name: s.Name, At: RFC3339(s.At), By: s.By.Role.String(), Refused: s.Refused, SVG: s.SVG()})
	}
	return out
}
