package game

import (
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// RepetitionVoters is how many arbiters rule on a pending repetition (G-6;
// 000 ch.8 请裁制度: three arbiters each find the root of the cycle).
const RepetitionVoters = 3

// Vote records one arbiter's sealed verdict on a pending repetition: side
// is the side that arbiter holds mainly responsible (G-6). The seed has the
// three arbiters each write their finding in the palm and show it at the same
// moment (000 ch.3 巡回裁判员 5, ch.8 请裁制度), so that none follows another:
// each vote is kept in the log but no view shows a side until the third
// arbiter's vote is in, and then the ruling is made at once — the side two or
// three hold responsible loses — exactly as Rule with three votes does. Each
// official (by.ID) votes once; a second vote from the same one is refused, as
// is a vote while the game is not pending a ruling. Before the third vote the
// players may still agree a draw (RecordResult), which ends the matter.
func (g *Game) Vote(now int64, by Actor, side xiangqi.Color, note string) error {
	if !by.Role.rules() {
		return refuse(CodeForbidden, "O-1", "only an arbiter votes on a repetition; %s may not", by.Role.withArticle())
	}
	if by.ID == "" {
		return refuse(CodeInvalidArgument, "G-6", "a sealed vote needs the arbiter's own token: each of the three votes once")
	}
	if side != xiangqi.Red && side != xiangqi.Black {
		return refuse(CodeInvalidArgument, "G-6", "name red or black as the side mainly responsible")
	}
	if len(note) > MaxNoteBytes {
		return refuse(CodeInvalidArgument, "", "the note is longer than %d bytes", MaxNoteBytes)
	}
	g.Settle(now)
	if g.status == Over {
		return refuse(CodeGameOver, "", "the game is over: %v by %v", g.result, g.reason)
	}
	if g.status != PendingRuling {
		return refuse(CodeInvalidRuling, "G-6", "a repetition vote needs a pending position (6 cycles or a player's request from 5)")
	}
	cast := g.SealedVotes()
	for _, e := range cast {
		if e.By.ID == by.ID {
			return refuse(CodeInvalidRuling, "G-6", "this arbiter has already voted; the votes are shown together once all %d are in", RepetitionVoters)
		}
	}
	g.logRuling(now, by, Ruling{Kind: RulingVote, Side: side, Note: note})
	cast = append(cast, g.log[len(g.log)-1])
	if len(cast) < RepetitionVoters {
		return nil
	}
	r := Ruling{Kind: RulingRepetition}
	for i, e := range cast {
		r.Votes[i] = e.Ruling.Side
	}
	return g.ruleRepetition(now, by, r)
}

// SealedVotes returns the repetition votes cast in the current pending
// episode, oldest first: the vote entries after the last loaded record (a
// record loaded in place of the moves starts the position afresh). Callers
// showing a game must not reveal their sides while the game is pending.
func (g *Game) SealedVotes() []LogEntry {
	var out []LogEntry
	for _, e := range g.log {
		switch e.Ruling.Kind {
		case RulingVote:
			out = append(out, e)
		case RulingLoad:
			out = out[:0]
		}
	}
	return out
}
