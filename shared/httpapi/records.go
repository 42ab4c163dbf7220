package httpapi

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// load reads one item and decodes its JSON document into v; a missing item is
// a 404 naming what was looked for.
func (a *API) load(ctx context.Context, pk, sk, what string, v any) (*store.Record, error) {
	rec, err := a.store.Get(ctx, pk, sk)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound(what)
	}
	if err != nil {
		return nil, err
	}
	if err := service.DecodeItem(rec, v); err != nil {
		return nil, err
	}
	return rec, nil
}

// encode puts v into rec's document, in its stored shape (service.EncodeItem).
func encode(rec *store.Record, v any) *store.Record { return service.EncodeItem(rec, v) }

func (a *API) loadTournament(ctx context.Context, tid string) (*tournament.Tournament, *store.Record, error) {
	var t tournament.Tournament
	rec, err := a.load(ctx, store.TournamentPK(tid), store.MetaSK, "tournament "+tid, &t)
	return &t, rec, err
}

func (a *API) loadPlayer(ctx context.Context, tid, pid string) (*tournament.Player, *store.Record, error) {
	var p tournament.Player
	rec, err := a.load(ctx, store.TournamentPK(tid), store.PlayerSK(pid), "player "+pid, &p)
	return &p, rec, err
}

func (a *API) loadOfficial(ctx context.Context, tid, oid string) (*tournament.Official, *store.Record, error) {
	var o tournament.Official
	rec, err := a.load(ctx, store.TournamentPK(tid), store.OfficialSK(oid), "official "+oid, &o)
	return &o, rec, err
}

func (a *API) loadTeam(ctx context.Context, tid, mid string) (*tournament.Team, *store.Record, error) {
	var t tournament.Team
	rec, err := a.load(ctx, store.TournamentPK(tid), store.TeamSK(mid), "team "+mid, &t)
	return &t, rec, err
}

// loadPlayers reads every player of an event with a paginated Query, in id order.
func (a *API) loadPlayers(ctx context.Context, tid string) ([]*tournament.Player, []*store.Record, error) {
	recs, err := a.store.Query(ctx, store.TournamentPK(tid), store.PlayerPrefix, 0)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*tournament.Player, len(recs))
	for i, rec := range recs {
		out[i] = new(tournament.Player)
		if err := service.DecodeItem(rec, out[i]); err != nil {
			return nil, nil, fmt.Errorf("decode player %s: %w", rec.SK, err)
		}
	}
	return out, recs, nil
}

// shownPlayer is one player as clients see it. Its number is the drawn one
// once the event shows drawn numbers (tournament.NumbersDrawn); the lot
// reads the whole field, so only then are the players loaded, p standing
// for itself as this request left it.
func (a *API) shownPlayer(ctx context.Context, t *tournament.Tournament, p *tournament.Player) (playerOut, error) {
	if !tournament.NumbersDrawn(t) {
		return playerView(p, p.Number), nil
	}
	players, _, err := a.loadPlayers(ctx, t.ID)
	if err != nil {
		return playerOut{}, err
	}
	players = slices.DeleteFunc(players, func(q *tournament.Player) bool { return q.ID == p.ID })
	return playerView(p, tournament.ShownNumbers(t, append(players, p))[p.ID]), nil
}
