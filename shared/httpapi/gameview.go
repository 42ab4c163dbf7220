package httpapi

import (
	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// gameOut is GET /games/{gid}: API.md's fields first, then the details a
// client or arbiter needs (clock periods, repetition facts, fouls, the link).
type gameOut struct {
	ID         string        `json:"id"`
	FEN        string        `json:"fen"`
	StartFEN   string        `json:"startFen"`
	SideToMove string        `json:"sideToMove"`
	Ply        int           `json:"ply"`
	Since      int           `json:"since"`
	Moves      []string      `json:"moves"`
	LegalMoves []string      `json:"legalMoves"`
	Clocks     clocksOut     `json:"clocks"`
	DrawOffer  drawOut       `json:"drawOffer"`
	Repetition repetitionOut `json:"repetition"`
	Fouls      colourInts    `json:"fouls"`
	NoCapture  struct {
		Moves int `json:"moves"`
		Limit int `json:"limit"`
	} `json:"noCapture"`
	TimeControl timeControlJSON `json:"timeControl"`
	Status      string          `json:"status"`
	Result      *string         `json:"result"`
	Reason      *string         `json:"reason"`
	EndedAt     *string         `json:"endedAt,omitempty"`
	Tournament  *linkOut        `json:"tournament,omitempty"`
	Version     uint64          `json:"version"`
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
	ID    string `json:"id"`
	Round int    `json:"round"`
	Table int    `json:"table"`
	Red   string `json:"red"`
	Black string `json:"black"`
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
		Moves: v.Moves[since:], LegalMoves: v.LegalMoves, TimeControl: timeControlOut(v.Control),
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
	if v.Status == game.Playing {
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
	if r.Requested {
		out.Repetition.RequestedBy = strp(r.RequestedBy.String())
	}
	out.NoCapture.Moves, out.NoCapture.Limit = v.NoCaptureMoves, v.NoCaptureLimit
	if v.Status == game.Over {
		out.Result, out.Reason = strp(v.Result.String()), strp(v.Reason.String())
		out.EndedAt = strp(rfc3339(v.EndedAt))
	}
	if sg.Link.Tournament != "" {
		out.Tournament = &linkOut{ID: sg.Link.Tournament, Round: sg.Link.Round, Table: sg.Link.Table, Red: sg.Link.Red, Black: sg.Link.Black}
	}
	return out
}
