package live

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// Kinds are the item kinds whose changes are pushed: the deployed stream's
// event filter lets only these invoke the fan-out (template.yaml, held equal
// by infra/deploy's tests), and the local feed drops the rest the same way.
// No standings item exists: standings are computed from results, and their
// message goes out with each result's.
var Kinds = []string{store.KindGame, store.KindRound, store.KindResult, store.KindPlayer}

// Relevant reports whether a change may produce a message: an item of one of
// Kinds written. Removals and connection or subscription items never do.
func Relevant(c store.Change) bool {
	if c.New == nil {
		return false
	}
	for _, k := range Kinds {
		if c.New.Kind == k {
			return true
		}
	}
	return false
}

// outgoing is one message for the followers of a topic; a game's body is
// rendered only once someone follows it.
type outgoing struct {
	topic  string
	change int // index of the change it came from
	game   *store.Record
	link   games.Placement
	round  bool // the game's change for its round's followers (a RoundMessage)
	event  *TournamentMessage
}

// messages says what a change tells whom.
func messages(i int, c store.Change) []outgoing {
	if !Relevant(c) {
		return nil
	}
	rec := c.New
	if _, ok := store.GameOf(c.Key.PK); ok && c.Key.SK == store.GameSK && rec.Kind == store.KindGame {
		link, err := games.LinkOf(rec)
		if err != nil { // rendering will say so for the game's own followers
			return []outgoing{{topic: c.Key.PK, change: i, game: rec}}
		}
		out := []outgoing{{topic: c.Key.PK, change: i, game: rec, link: link}}
		if link.Tournament != "" && link.Round > 0 {
			out = append(out, outgoing{topic: RoundTopic(link.Tournament, link.Round), change: i, game: rec, link: link, round: true})
		}
		return out
	}
	tid, ok := store.TournamentOf(c.Key.PK)
	if !ok {
		return nil
	}
	event := func(what string, round int) outgoing {
		return outgoing{topic: c.Key.PK, change: i, event: &TournamentMessage{Type: "tournament", Tournament: tid, What: what, Round: round}}
	}
	sk := c.Key.SK
	n, _ := store.RoundOf(sk)
	switch prefix := store.SKPrefix(sk); {
	case rec.Kind == store.KindRound && prefix == store.RoundPrefix:
		return []outgoing{event(WhatRound, n)}
	case rec.Kind == store.KindResult && prefix == store.ResultPrefix:
		// Standings are computed from results, so they change with each.
		return []outgoing{event(WhatResult, n), event(WhatStandings, n)}
	case rec.Kind == store.KindPlayer && prefix == store.PlayerPrefix:
		return []outgoing{event(WhatPlayers, 0)}
	}
	return nil
}

// fanoutWorkers bounds how many topics one batch serves at once.
const fanoutWorkers = 16

// Fanout posts what changes say to the followers of each changed game or
// event. Changes of one topic are posted in order; different topics in
// parallel. An event message repeated within the batch (a team of players
// registered at once) is posted once. A connection that is gone is removed
// with its subscriptions; other delivery failures are logged and skipped
// (messages are hints). It returns the index of the first change it could not
// serve because the store failed (to be retried from there), or -1.
func (h *Hub) Fanout(ctx context.Context, changes []store.Change) (int, error) {
	var order []string
	byTopic := map[string][]outgoing{}
	seen := map[TournamentMessage]bool{}
	for i, c := range changes {
		for _, o := range messages(i, c) {
			if o.event != nil {
				if seen[*o.event] {
					continue
				}
				seen[*o.event] = true
			}
			if _, ok := byTopic[o.topic]; !ok {
				order = append(order, o.topic)
			}
			byTopic[o.topic] = append(byTopic[o.topic], o)
		}
	}
	var (
		mu     sync.Mutex
		failed = -1
		first  error
		wg     sync.WaitGroup
		slots  = make(chan struct{}, fanoutWorkers)
	)
	for _, topic := range order {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			if i, err := h.serveTopic(ctx, topic, byTopic[topic]); err != nil {
				mu.Lock()
				if failed < 0 || i < failed {
					failed, first = i, err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return failed, first
}

// serveTopic posts a topic's messages in order.
func (h *Hub) serveTopic(ctx context.Context, topic string, outs []outgoing) (int, error) {
	subs, err := h.subscribers(ctx, topic)
	if err != nil {
		return outs[0].change, err
	}
	for _, o := range outs {
		if len(subs) == 0 {
			return -1, nil
		}
		if d := o.link.DelayMs; o.game != nil && d > 0 {
			subs = h.holdBack(ctx, topic, subs, o, d)
			continue
		}
		data, err := h.render(o)
		if err != nil {
			h.log.Error("live: render", "topic", topic, "err", err.Error())
			continue
		}
		subs = h.deliver(ctx, topic, subs, data)
	}
	return -1, nil
}

func (h *Hub) render(o outgoing) ([]byte, error) {
	now := h.now().UnixMilli()
	if o.event != nil {
		m := *o.event
		m.ServerTime = now
		return json.Marshal(m)
	}
	if o.round {
		b, ok, err := games.BriefOf(o.game, now)
		if err != nil || !ok {
			return nil, cmp.Or(err, errors.New("live: a round message of a standalone game"))
		}
		return json.Marshal(RoundMessage{Type: b.Kind, Tournament: b.Tournament, Round: b.Round, Table: b.Table, Game: b.Game, Ply: b.Ply,
			Move: b.Move, FEN: b.FEN, Clocks: b.Clocks, Status: b.Status, Result: b.Result, Reason: b.Reason, ServerTime: now})
	}
	g, err := games.JSON(o.game, now)
	if err != nil {
		return nil, err
	}
	return json.Marshal(GameMessage{Type: "game", ServerTime: now, Game: g})
}

// holdBack serves a change of a game under a broadcast delay of d ms. Every
// follower of the socket is public (it carries no credentials), so none may
// learn a move before the delay has passed since it was made. Where the hub
// can wait (WithLater: the local server), the message is rendered and
// posted d from now, showing the game as it stood d before that (AsOf), to
// the topic's followers then; where it cannot (the deployed fan-out, a
// Lambda), each follower is told now, in a DelayedMessage naming no move,
// when to read GET /games/{gid}, which shows the change from then on. It
// returns the followers still there.
func (h *Hub) holdBack(ctx context.Context, topic string, subs []string, o outgoing, d int64) []string {
	now := h.now().UnixMilli()
	if h.later == nil {
		gid, _ := store.GameOf(o.game.PK)
		data, err := json.Marshal(DelayedMessage{Type: "delayed", Game: gid, Tournament: o.link.Tournament, Round: o.link.Round, Table: o.link.Table,
			VisibleAt: now + d, ServerTime: now})
		if err != nil {
			h.log.Error("live: render", "topic", topic, "err", err.Error())
			return subs
		}
		return h.deliver(ctx, topic, subs, data)
	}
	h.later(time.Duration(d)*time.Millisecond, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		subs, err := h.subscribers(ctx, topic)
		if err != nil || len(subs) == 0 {
			if err != nil {
				h.log.Warn("live: delayed message", "topic", topic, "err", err.Error())
			}
			return
		}
		data, err := h.render(o) // as of the firing: the game as it stood d ago
		if err != nil {
			h.log.Error("live: render", "topic", topic, "err", err.Error())
			return
		}
		h.deliver(ctx, topic, subs, data)
	})
	return subs
}

// deliver posts data to every subscriber at once and returns those still there.
func (h *Hub) deliver(ctx context.Context, topic string, subs []string, data []byte) []string {
	gone := make([]bool, len(subs))
	var wg sync.WaitGroup
	for i, id := range subs {
		wg.Go(func() {
			err := h.post.Post(ctx, id, data)
			switch {
			case errors.Is(err, ErrGone):
				gone[i] = true
				h.removeGone(ctx, topic, id)
			case err != nil:
				h.log.Warn("live: post", "connection", id, "topic", topic, "err", err.Error())
			}
		})
	}
	wg.Wait()
	left := subs[:0:0]
	for i, id := range subs {
		if !gone[i] {
			left = append(left, id)
		}
	}
	return left
}

// removeGone deletes a gone connection: the subscription that found it (even
// when the connection item has expired already) and everything else it had.
func (h *Hub) removeGone(ctx context.Context, topic, id string) {
	err := h.store.Delete(ctx, store.SubscriptionPK(topic), store.SubscriptionSK(id))
	if err == nil {
		err = h.Disconnect(ctx, id)
	}
	if err != nil {
		h.log.Warn("live: remove gone connection", "connection", id, "err", err.Error())
	}
}
