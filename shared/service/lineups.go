package service

import (
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// SubmitLineup sets a team's lineup for its match in round N (T-2, T-3,
// T-4), by its captain or the organiser; the organiser's DrawMissing draws
// every lineup still missing (T-3). Each write also rewrites the round item
// under its version (WriteLineups), so of two captains submitting at once
// one runs again and sees the other's lineup: the match is set (its board
// games made) exactly when its second lineup is in. Its lineups are written
// in chunks by the command itself, so what a run stored is kept across the
// runs Exec repeats (Written, Due).
type SubmitLineup struct {
	N           int
	Team        string
	Lineup      []string
	DrawMissing bool
	// Written are the lineups this request stored, Due those the server
	// drew at the deadline first (T-3), kept across runs.
	Written, Due []tournament.Lineup
	// Round is the round as stored, and Event the event it belongs to.
	Round *tournament.Round
	Event *TeamEvent
}

// Roles implements Command: the organiser and the team's captain.
func (*SubmitLineup) Roles() []Role { return []Role{Organiser, Captain} }

// Apply implements Command; the answer is the command itself.
func (c *SubmitLineup) Apply(x *Txn) (any, error) {
	ev, err := x.Event()
	if err != nil {
		return nil, err
	}
	if c.DrawMissing == (c.Lineup != nil) { // checked after auth: strangers learn nothing
		return nil, command.BadRequest("invalid_field", `give either "lineup" or "drawMissing": true`)
	}
	if err := ev.T.CheckTeamEvent("lineups"); err != nil {
		return nil, err
	}
	captainOf := ""
	if x.By.Role == Captain {
		captainOf = x.By.ID
	}
	teamID, err := tournament.LineupTeam(captainOf, c.Team, c.DrawMissing)
	if err != nil {
		return nil, err
	}
	// T-3: past the round's start the server draws what is missing first,
	// and that draw stands even when this lineup is refused.
	d, err := x.S.DrawDueLineups(x.Ctx, ev, []int{c.N})
	if err != nil {
		return nil, err
	}
	c.Due = append(c.Due, d...) // kept across runs: an earlier run's draw is stored
	te, err := ev.Teams()
	if err != nil {
		return nil, err
	}
	if teamID != "" && te.TH.Team(teamID) == nil {
		return nil, command.NotFoundf("team %s", quote(Clip(teamID, 40)))
	}
	stored := ev.Round(c.N)
	if stored == nil {
		return nil, command.NotFoundf("round %d of %s (lineups are set once the round is paired)", c.N, x.TID)
	}
	var lineups []tournament.Lineup
	if c.DrawMissing {
		lineups = te.TH.DrawMissing(ev.T, stored, x.By.ID, x.Now)
	} else {
		l, err := te.TH.SubmitLineup(ev.T, stored, teamID, c.Lineup, x.By.ID, x.Now)
		if err != nil {
			return nil, err
		}
		lineups = []tournament.Lineup{l}
	}
	k, err := x.S.WriteLineups(x.Ctx, ev, te, c.N, lineups, EventGameID(ev.T))
	c.Written = append(c.Written, lineups[:k]...) // kept across runs: those chunks are stored
	c.Round, c.Event = stored, te
	return c, err
}
