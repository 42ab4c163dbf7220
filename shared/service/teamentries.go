package service

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// RegisterTeam enters a team with its members and substitutes (T-1): the
// team, its players and the event's counts in one transaction under the
// event item's version, so the caps hold however many requests race. The
// cap playersPerTeam, which the request alone decides, is the caller's to
// check before it asks.
type RegisterTeam struct {
	Name                 string
	Members, Substitutes []tournament.Player // ID and TokenHash are made here
}

// TeamRegistered is RegisterTeam's answer: the team, its players, the
// captain's token and each player's, shown once.
type TeamRegistered struct {
	Team    tournament.Team
	Players []tournament.Player
	Token   string
	// Tokens are the players' tokens by id, in entry order.
	Tokens []PlayerToken
}

// PlayerToken is a team player's new token.
type PlayerToken struct {
	ID, Name, Token string
}

// Roles implements Command: the organiser's.
func (RegisterTeam) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c RegisterTeam) Apply(x *Txn) (any, error) {
	if n := len(c.Members) + len(c.Substitutes); n > LimitOf(CapTeamPlayers).Max {
		return nil, TooMany(CapTeamPlayers, n)
	}
	if x.T.Settings.Teams && x.T.TeamCount >= LimitOf(CapTeams).Max {
		return nil, OverLimit(CapTeams)
	}
	mid := NewID('m')
	out := TeamRegistered{}
	var hash string
	out.Token, hash = NewToken(x.TID, mid)
	entry := func(ps []tournament.Player) []tournament.Player {
		var list []tournament.Player
		for _, p := range ps {
			pid := NewID('p')
			tok, h := NewToken(x.TID, pid)
			out.Tokens = append(out.Tokens, PlayerToken{ID: pid, Name: strings.TrimSpace(p.Name), Token: tok})
			p.ID, p.TokenHash = pid, h
			list = append(list, p)
		}
		return list
	}
	members, subs := entry(c.Members), entry(c.Substitutes)
	var err error
	out.Team, out.Players, err = x.T.RegisterTeam(tournament.Team{ID: mid, Name: c.Name, CaptainTokenHash: hash}, members, subs, x.Now)
	if err != nil {
		return nil, err
	}
	ttl := EventTTL(x.T)
	x.Put(encodeItem(x.Meta, x.T), encodeItem(&store.Record{PK: store.TournamentPK(x.TID), SK: store.TeamSK(mid), Kind: store.KindTeam, Expires: ttl}, out.Team))
	for i := range out.Players {
		x.Put(PlayerItem(x.T, &out.Players[i]))
	}
	return out, nil
}

// WithdrawTeam withdraws a team (T-1, S-6). As for a player, the event item
// is rewritten so the race with a pairing is lost by whichever writes
// second: a lost race is a conflict carrying the team as it now is.
type WithdrawTeam struct {
	Team string
}

// TeamWithdrawn is WithdrawTeam's answer: the team and the event's players.
type TeamWithdrawn struct {
	Team    *tournament.Team
	Players []*tournament.Player
}

// Roles implements Command: the organiser's.
func (WithdrawTeam) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c WithdrawTeam) Apply(x *Txn) (any, error) {
	tm, rec, err := x.S.Team(x.Ctx, x.TID, c.Team)
	if err != nil {
		return nil, err
	}
	if err := x.T.WithdrawTeam(tm); err != nil {
		return nil, err
	}
	// Read before the write, so a throttled read cannot fail a request
	// that has already acted (a retry would then be refused as withdrawn).
	players, err := x.S.Players(x.Ctx, x.TID)
	if err != nil {
		return nil, err
	}
	x.Put(encodeItem(rec, tm), encodeItem(x.Meta, x.T))
	return TeamWithdrawn{Team: tm, Players: players}, nil
}

// Current implements Reporter: the team as it now is.
func (c WithdrawTeam) Current(x *Txn) (any, error) {
	tm, _, err := x.S.Team(x.Ctx, x.TID, c.Team)
	if err != nil {
		return nil, err
	}
	players, err := x.S.Players(x.Ctx, x.TID)
	return TeamWithdrawn{Team: tm, Players: players}, err
}

// Players reads every player of event tid with a paginated Query, in id order.
func (s *Service) Players(ctx context.Context, tid string) ([]*tournament.Player, error) {
	return queryItems[tournament.Player](ctx, s, store.TournamentPK(tid), store.PlayerPrefix)
}

// PlayersByNumber reads event tid's players in the order the event lists
// them (P-3), with the numbers it shows (tournament.ShownNumbers): the
// numbers drawn for round 1 once an individual Swiss has paired it, else
// the entry numbers. A registration removed before round 1 leaves its
// entry number unused (the drawn numbers have no gaps).
func (s *Service) PlayersByNumber(ctx context.Context, tid string) ([]*tournament.Player, map[string]int, error) {
	t, _, err := s.Tournament(ctx, tid)
	if err != nil {
		return nil, nil, err
	}
	players, err := s.Players(ctx, tid)
	if err != nil {
		return nil, nil, err
	}
	number := tournament.ShownNumbers(t, players)
	slices.SortFunc(players, func(x, y *tournament.Player) int {
		return cmp.Or(cmp.Compare(number[x.ID], number[y.ID]), cmp.Compare(x.Number, y.Number))
	})
	return players, number, nil
}

// Officials reads every official of event tid, in id order.
func (s *Service) Officials(ctx context.Context, tid string) ([]*tournament.Official, error) {
	return queryItems[tournament.Official](ctx, s, store.TournamentPK(tid), store.OfficialPrefix)
}

// OfficialsByRole reads every official of event tid as the organiser's
// list shows them (O-1): by role, then name, then id.
func (s *Service) OfficialsByRole(ctx context.Context, tid string) ([]*tournament.Official, error) {
	officials, err := s.Officials(ctx, tid)
	slices.SortFunc(officials, func(x, y *tournament.Official) int {
		return cmp.Or(strings.Compare(x.Role, y.Role), strings.Compare(x.Name, y.Name), strings.Compare(x.ID, y.ID))
	})
	return officials, err
}

// Teams reads every team of event tid, in team-number order.
func (s *Service) Teams(ctx context.Context, tid string) ([]*tournament.Team, error) {
	teams, err := queryItems[tournament.Team](ctx, s, store.TournamentPK(tid), store.TeamPrefix)
	slices.SortStableFunc(teams, func(x, y *tournament.Team) int { return x.Number - y.Number })
	return teams, err
}

// queryItems reads the items of partition pk whose keys begin with prefix
// (a paginated Query) and decodes each into a core value.
func queryItems[T any](ctx context.Context, s *Service, pk, prefix string) ([]*T, error) {
	recs, err := s.store.Query(ctx, pk, prefix, 0)
	if err != nil {
		return nil, err
	}
	out := make([]*T, len(recs))
	for i, rec := range recs {
		out[i] = new(T)
		if err := decodeItem(rec, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}
