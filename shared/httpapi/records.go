package httpapi

import (
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/tournament"
)

// shownPlayer is one player as clients see it. Its number is the drawn one
// once the event shows drawn numbers (tournament.NumbersDrawn); the lot
// reads the whole field, so only then are the players loaded, p standing
// for itself as this request left it.
func (a *API) shownPlayer(ctx context.Context, t *tournament.Tournament, p *tournament.Player) (playerOut, error) {
	if !tournament.NumbersDrawn(t) {
		return playerView(p, p.Number), nil
	}
	players, err := a.svc.Players(ctx, t.ID)
	if err != nil {
		return playerOut{}, err
	}
	players = slices.DeleteFunc(players, func(q *tournament.Player) bool { return q.ID == p.ID })
	return playerView(p, tournament.ShownNumbers(t, append(players, p))[p.ID]), nil
}
