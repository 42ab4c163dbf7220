package httpapi

import (
	"context"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/games"
)

// The game layer is shared/service/games (the item's codec, the write loop,
// the view); these are its calls as a request makes them.

// gameStore is the game layer over the API's store: its retention, its
// log, the event check of an ending game, the event's follow-up of its end
// (a knockout's next games, S-3: stored with the game's write, done by the
// game command that ended it) and the request's usage.
func (a *API) gameStore() *games.Store {
	return &games.Store{Store: a.store, Log: a.log, Retention: a.retention, Own: a.svc.PairingsGame,
		Ending: a.svc.EndingItems, Ended: a.svc.GameEnded,
		Loaded: func(ctx context.Context, it *games.Item) { noteEvent(ctx, it.Link.Tournament, it.ID) }}
}

func (a *API) loadGame(c *call, gid string) (*games.Item, error) {
	return a.games.Load(c.ctx(), gid)
}

// mutateGame runs op on the path's game through the game layer's one write
// loop (games.Store.Mutate), the caller authenticated by gameActor.
func (a *API) mutateGame(c *call, op func(sg *games.Item, by game.Actor) error) (int, any, error) {
	v, err := a.games.Mutate(c.ctx(), c.r.PathValue("gid"), c.nowMs(), func(sg *games.Item) (game.Actor, error) {
		by, who, err := a.gameActor(c, sg)
		by.ID = who.ID // the log of rulings says who
		return by, err
	}, op)
	if err != nil {
		return 0, nil, err
	}
	return 200, v, nil
}
