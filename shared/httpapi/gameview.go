package httpapi

import (
	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// gameOut is GET /games/{gid}: API.md's fields first, then the details a
// client or arbiter needs (clock periods, repetition facts, fouls, the link).
type gameOut struct {
	ID         string       `json:"id"`
	FEN        string       `json:"fen"`
	StartFEN   string       `json:"startFen"`
	SideToMove string       `json:"sideToMove"`
	Ply        int          `json:"ply"`
	Since      int          `json:"since"`
	Moves      []string     `json:"moves"`
	Notation   *notationOut `json:"notation,omitempty"`
	LegalMoves []string     `json:"legalMoves"`
	InCheck    bool         `json:"inCheck"`
	// Started is false until the round starts (the organiser's or an
	// arbiter's start, or its start time passing): no clock runs before.
	Started       bool          `json:"started"`
	RoundStartsAt *string       `json:"roundStartsAt"`
	Clocks        clocksOut     `json:"clocks"`
	DrawOffer     drawOut       `json:"drawOffer"`
	Repetition    repetitionOut `json:"repetition"`
	Fouls         colourInts    `json:"fouls"`
	NoCapture     struct {
		Moves int `json:"moves"`
		Limit int `json:"limit"`
	} `json:"noCapture"`
	TimeControl timeControlJSON `json:"timeControl"`
	Status      string          `json:"status"`
	Result      *string         `json:"result"`
	Reason      *string         `json:"reason"`
	EndedAt     *string         `json:"endedAt,omitempty"`
	Tournament  *linkOut        `json:"tournament,omitempty"`
	// Corrections are the result corrections, oldest first: who, when,
	// the result before and after, and why (O-1).
	Corrections []correctionOut `json:"corrections"`
	// Discipline is every foul, penalty and dropped piece with who, when and why (O-2).
	Discipline []disciplineOut `json:"discipline"`
	// Adjourned is the adjournment (C-7), null while the game is not adjourned.
	Adjourned *adjournedOut `json:"adjourned"`
	// Signatures are the scoresheet's signed lines (O-3), and Signed says
	// all three are: until then the record is awaiting signatures.
	Signatures []signatureOut `json:"signatures"`
	Signed     bool           `json:"signed"`
	Version    uint64         `json:"version"`
}

type colourInts struct {
	Red   int `json:"red"`
	Black int `json:"black"`
}

type clocksOut struct {
	RedMs         int64   `json:"redMs"`
	BlackMs       int64   `json:"blackMs"`
	Running       *string `json:"running"`
	Untimed       bool    `json:"untimed"`
	AwaitingPress bool    `json:"awaitingPress"`
	Red           faceOut `json:"red"`
	Black         faceOut `json:"black"`
}

type faceOut struct {
	RemainingMs int64 `json:"remainingMs"`
	UsedMs      int64 `json:"usedMs"`
	Moves       int   `json:"moves"`
	Period      int   `json:"period"`
	MovesDue    int   `json:"movesDue"`
	Flagged     bool  `json:"flagged"`
}

type drawOut struct {
	Pending bool    `json:"pending"`
	By      *string `json:"by"`
	Ply     int     `json:"ply"`
	Made    int     `json:"made"`
	Left    int     `json:"left"`
}

type repetitionOut struct {
	Rule           string     `json:"rule"`
	Cycles         int        `json:"cycles"`
	CycleLength    int        `json:"cycleLength"`
	Warning        bool       `json:"warning"`
	Requested      bool       `json:"requested"`
	RequestedBy    *string    `json:"requestedBy"`
	PerpetualCheck colourBool `json:"perpetualCheck"`
	PerpetualChase colourBool `json:"perpetualChase"`
	CouldBreak     colourBool `json:"couldBreak"`
	BreakingMove   colourMove `json:"breakingMove"`
	// Votes is the sealed vote on a pending repetition (votes.go), null when
	// none is under way; Ruling is the repetition ruling once made.
	Votes  *votesOut            `json:"votes"`
	Ruling *repetitionRulingOut `json:"ruling"`
}

// colourMove is a move per side in ICCS, null when there is none.
type colourMove struct {
	Red   *string `json:"red"`
	Black *string `json:"black"`
}

type colourBool struct {
	Red   bool `json:"red"`
	Black bool `json:"black"`
}

type linkOut struct {
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

// adjournedOut is an adjourned game's state (C-7): since when and whose
// move is sealed; the move itself is shown only when the game resumes.
type adjournedOut struct {
	At       string `json:"at"`
	SealedBy string `json:"sealedBy"`
}

// correctionOut is one result correction in the game's log.
type correctionOut struct {
	At     string    `json:"at"`
	By     string    `json:"by"`
	ByID   string    `json:"byId,omitempty"`
	Before resultOut `json:"before"`
	After  resultOut `json:"after"`
	Note   string    `json:"note"`
}

// resultOut is a result and its reason; both null for a game that had none.
type resultOut struct {
	Result *string `json:"result"`
	Reason *string `json:"reason"`
}

func resultView(r result.Result, why game.Reason) resultOut {
	if r == result.None {
		return resultOut{}
	}
	return resultOut{Result: strp(r.String()), Reason: strp(why.String())}
}

func correctionsView(log []game.LogEntry) []correctionOut {
	out := []correctionOut{}
	for _, e := range log {
		if e.Ruling.Kind != game.RulingResult {
			continue
		}
		out = append(out, correctionOut{At: rfc3339(e.At), By: e.By.Role.String(), ByID: e.By.ID,
			Before: resultView(e.Ruling.Before, e.Ruling.BeforeReason), After: resultView(e.Ruling.Result, e.Ruling.Reason), Note: e.Ruling.Note})
	}
	return out
}

// notationOut is the moves (from since) in the notation a client asked for.
type notationOut struct {
	Name   string   `json:"name"`
	Script string   `json:"script,omitempty"`
	Moves  []string `json:"moves"`
}

func strp(s string) *string { return &s }

func faceView(f clock.FaceReading) faceOut {
	return faceOut{RemainingMs: f.RemainingMs, UsedMs: f.UsedMs, Moves: f.Moves, Period: f.Period, MovesDue: f.MovesDue, Flagged: f.Flagged}
}

// gameView renders the game as of now; moves before since are left out so a
// polling client fetches only what is new.
func gameView(sg *storedGame, now int64, since int) gameOut {
	v := sg.Game.View(now)
	since = min(since, len(v.Moves))
	out := gameOut{
		ID: sg.ID, FEN: v.FEN, StartFEN: v.StartFEN, SideToMove: v.SideToMove.String(), Ply: v.Ply, Since: since,
		Moves: v.Moves[since:], LegalMoves: v.LegalMoves, InCheck: v.InCheck, Started: v.Started, TimeControl: timeControlOut(v.Control),
		Fouls: colourInts{Red: v.Fouls[xiangqi.Red], Black: v.Fouls[xiangqi.Black]}, Status: v.Status.String(), Version: v.Version,
	}
	if out.LegalMoves == nil {
		out.LegalMoves = []string{}
	}
	out.Clocks = clocksOut{
		RedMs: v.Clock.Faces[clock.Red].RemainingMs, BlackMs: v.Clock.Faces[clock.Black].RemainingMs,
		Untimed: v.Clock.Untimed, AwaitingPress: v.AwaitingPress,
		Red: faceView(v.Clock.Faces[clock.Red]), Black: faceView(v.Clock.Faces[clock.Black]),
	}
	if v.StartsAt != 0 {
		out.RoundStartsAt = strp(rfc3339(v.StartsAt))
	}
	if v.Status == game.Playing && v.Started && v.Clock.Running != clock.None {
		out.Clocks.Running = strp(xiangqi.Color(v.Clock.Running).String())
	}
	out.DrawOffer = drawOut{Pending: v.Draw.Pending, Ply: v.Draw.Ply, Made: v.Draw.Made, Left: v.Draw.Left}
	if v.Draw.Pending {
		out.DrawOffer.By = strp(v.Draw.By.String())
	}
	r := v.Repetition
	out.Repetition = repetitionOut{Rule: r.Rule.String(), Cycles: r.Cycles, CycleLength: r.CycleLength, Warning: r.Warning, Requested: r.Requested,
		PerpetualCheck: colourBool{r.PerpetualCheck[xiangqi.Red], r.PerpetualCheck[xiangqi.Black]},
		PerpetualChase: colourBool{r.PerpetualChase[xiangqi.Red], r.PerpetualChase[xiangqi.Black]},
		CouldBreak:     colourBool{r.CouldBreak[xiangqi.Red], r.CouldBreak[xiangqi.Black]}}
	if m := r.BreakingMove[xiangqi.Red]; m != "" {
		out.Repetition.BreakingMove.Red = strp(m)
	}
	if m := r.BreakingMove[xiangqi.Black]; m != "" {
		out.Repetition.BreakingMove.Black = strp(m)
	}
	out.Repetition.Votes, out.Repetition.Ruling = votesView(sg.Game)
	if r.Requested {
		out.Repetition.RequestedBy = strp(r.RequestedBy.String())
	}
	out.NoCapture.Moves, out.NoCapture.Limit = v.NoCaptureMoves, v.NoCaptureLimit
	if v.Status == game.Over {
		out.Result, out.Reason = strp(v.Result.String()), strp(v.Reason.String())
		out.EndedAt = strp(rfc3339(v.EndedAt))
	}
	out.Corrections = correctionsView(sg.Game.Log())
	out.Discipline = disciplineView(sg.Game.Log())
	if v.Adjourned {
		out.Adjourned = &adjournedOut{At: rfc3339(v.AdjournedAt), SealedBy: v.AdjournedBy.String()}
	}
	out.Signatures, out.Signed = signaturesView(v), v.Signed
	if sg.Link.Tournament != "" {
		l := sg.Link
		out.Tournament = &linkOut{ID: l.Tournament, Round: l.Round, Table: l.Table, Red: l.Red, Black: l.Black,
			RedName: l.RedName, BlackName: l.BlackName, RedNumber: l.RedNumber, BlackNumber: l.BlackNumber}
	}
	return out
}
