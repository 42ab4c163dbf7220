package service

import (
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// CheckIn checks a player in for round N (E-2): the player with its own
// token, or the organiser or an arbiter at the desk for any player. The
// player's item is written under the event item's version, so a round
// paired meanwhile makes the check-in run again on the new state; a player
// already checked in gets the same answer and nothing is written.
type CheckIn struct {
	N      int
	Player string
}

// Roles implements Command: the player, the organiser and the arbiters.
func (CheckIn) Roles() []Role { return []Role{Player, Organiser, Arbiter, ChiefArbiter} }

// Apply implements Command; its answer is the player.
func (c CheckIn) Apply(x *Txn) (any, error) {
	pid := c.Player
	switch {
	case x.By.Role == Player && pid != "" && pid != x.By.ID:
		return nil, command.Forbid("a player's token checks in its own player only; the organiser or an arbiter checks in others")
	case x.By.Role == Player:
		pid = x.By.ID
	case pid == "":
		return nil, command.BadRequest("invalid_field", "player: the id of the player to check in")
	case !ValidID('p', pid):
		return nil, command.BadRequest("invalid_field", "player: "+quote(Clip(pid, 40))+" is not a player id")
	}
	p, rec, err := x.S.Player(x.Ctx, x.TID, pid)
	if err != nil {
		return nil, err
	}
	if p.CheckedIn >= c.N && p.Status == tournament.Active && c.N == x.T.Round+1 {
		return p, nil // already checked in: the same answer, nothing written
	}
	if err := x.T.CheckIn(p, c.N, x.Now); err != nil {
		return nil, err
	}
	x.Put(encodeItem(rec, p))
	x.Check(x.Meta)
	return p, nil
}

// ConfigureCheckIn turns the event's check-in on or off (before round 1)
// and sets when the next round's check-in opens (E-2): On nil leaves the
// setting, OpensAt nil leaves the time (0: at the previous round's pairing).
type ConfigureCheckIn struct {
	On      *bool
	OpensAt *int64
}

// Roles implements Command: the organiser's.
func (ConfigureCheckIn) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: it rewrites the event item, as check-ins read it.
func (ConfigureCheckIn) Serial() {}

// Apply implements Command; its answer is the event.
func (c ConfigureCheckIn) Apply(x *Txn) (any, error) {
	if err := x.T.ConfigureCheckIn(c.On, c.OpensAt, x.Now); err != nil {
		return nil, err
	}
	x.Put(encodeItem(x.Meta, x.T))
	return x.T, nil
}

// CheckInDesk is the check-in desk's list of round N (E-2): every player
// by the number the event shows, with whether they are checked in for it.
type CheckInDesk struct {
	// T is the event item read.
	T *tournament.Tournament
	N int
	// Open is whether round N's check-in is open now; OpensAt when the
	// organiser set it to open (0: at the previous round's pairing).
	Open    bool
	OpensAt int64
	// CheckedIn counts the rows checked in.
	CheckedIn int
	Rows      []DeskRow
}

// DeskRow is one player of the desk's list: checked in for the round only
// while active (a player withdrawn since checking in plays no more).
type DeskRow struct {
	Player    *tournament.Player
	Number    int
	CheckedIn bool
}

// CheckInDesk reads the check-in desk's list of round n for the
// organiser or an arbiter of event tid, at the request's instant.
func (s *Service) CheckInDesk(ctx context.Context, tid string, cred Credential, n int) (*CheckInDesk, error) {
	t, _, err := s.Authorise(ctx, tid, cred, Organiser, Arbiter, ChiefArbiter)
	if err != nil {
		return nil, err
	}
	players, err := s.Players(ctx, tid)
	if err != nil {
		return nil, err
	}
	number := tournament.ShownNumbers(t, players)
	slices.SortFunc(players, func(x, y *tournament.Player) int { return number[x.ID] - number[y.ID] })
	d := &CheckInDesk{T: t, N: n, Open: t.CheckInOpen(n, s.now(ctx)), OpensAt: t.CheckInOpensAt(n), Rows: make([]DeskRow, 0, len(players))}
	for _, p := range players {
		in := t.CheckedIn(p, n) && p.Status == tournament.Active
		if in {
			d.CheckedIn++
		}
		d.Rows = append(d.Rows, DeskRow{Player: p, Number: number[p.ID], CheckedIn: in})
	}
	return d, nil
}
