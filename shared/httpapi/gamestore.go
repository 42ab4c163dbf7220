package httpapi

import (
	"context"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The game layer is shared/service/games (the item's codec, the write loop,
// the view); these are its calls as a request makes them.

// gameStore is the game layer over the API's store: its retention, its
// log, the event check of an ending game and the request's usage.
func (a *API) gameStore() *games.Store {
	return &games.Store{Store: a.store, Log: a.log, Retention: a.retention, Own: a.pairingsGame,
		Loaded: func(ctx context.Context, it *games.Item) { noteEvent(ctx, it.Link.Tournament, it.ID) }}
}

func (a *API) loadGame(c *call, gid string) (*games.Item, error) {
	return a.games.Load(c.ctx(), gid)
}

// eventGame builds the record of a pairing's game (Version 0: to be created),
// with the event's time control and rules; its clocks start at the round's
// start (C-6): a round with no start time yet waits, clocks still, until the
// organiser or an arbiter starts it. A game made after its round started (a
// knockout's next or play-off game, a team board set late) starts when it is
// made, now: its players could not have played it before. numbers are the
// players' numbers as the event shows them (P-3), the ones the game keeps.
func (a *API) eventGame(t *tournament.Tournament, r *tournament.Round, p tournament.Pairing, red, black *tournament.Player, numbers map[string]int, now int64) (*store.Record, error) {
	start := r.StartsAt
	if start != 0 && now > start {
		start = now
	}
	setup := game.Setup{Control: t.Settings.TimeControl, Rules: t.Settings.Rules.Rules, StartMs: start}
	if t.Settings.Rules.RecordArrivals {
		setup.LateLimitMs = t.Settings.Rules.LateForfeitMs // C-6: absent at start + limit forfeits
	}
	g, err := game.New(setup)
	if err != nil {
		return nil, err
	}
	link := games.Link{Tournament: t.ID, Round: r.Number, Table: p.Table, Red: red.ID, Black: black.ID, RedHash: red.TokenHash, BlackHash: black.TokenHash,
		RedName: red.Name, BlackName: black.Name, RedNumber: numbers[red.ID], BlackNumber: numbers[black.ID], Delay: t.Settings.BroadcastDelaySeconds}
	return games.Encode(&store.Record{PK: store.GamePK(p.GameID), SK: store.GameSK, Kind: store.KindGame}, link, g)
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
