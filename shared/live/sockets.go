package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/store"
)

// Ephemeral reports whether an item is a live connection or subscription:
// state of open sockets, meaningless once the server that held them stops.
func Ephemeral(r *store.Record) bool {
	return r.Kind == store.KindConnection || r.Kind == store.KindSubscription
}

// connection is a connection item's document: the topics it follows, and
// its subscribes and unsubscribes in the current rate window.
type connection struct {
	Topics []string `json:"topics"`
	// Window is when the current rate window began (ms); Changes counts the
	// subscribes and unsubscribes written in it.
	Window  int64 `json:"window,omitempty"`
	Changes int   `json:"changes,omitempty"`
}

// spend counts one subscribe or unsubscribe against the connection's rate,
// or refuses it (too_many_requests) when the window's are spent.
func (h *Hub) spend(c *connection) error {
	now, window := h.now().UnixMilli(), h.limits.Window.Milliseconds()
	if now-c.Window >= window || now < c.Window {
		c.Window, c.Changes = now, 0
	}
	if c.Changes >= h.limits.Changes {
		wait := (c.Window + window - now + 999) / 1000
		return &ReplyError{"too_many_requests", fmt.Sprintf("a connection subscribes or unsubscribes at most %d times in %s; try again in %d s", h.limits.Changes, h.limits.Window, wait)}
	}
	c.Changes++
	return nil
}

// Connect records a new connection, to expire after ConnectionTTL.
func (h *Hub) Connect(ctx context.Context, id string) error {
	doc, err := json.Marshal(connection{Topics: []string{}})
	if err != nil {
		return err
	}
	rec := &store.Record{PK: store.ConnectionPK(id), SK: store.ConnectionSK, Kind: store.KindConnection, Version: 1, Doc: doc,
		Expires: h.now().Add(ConnectionTTL).Unix()}
	return h.store.Replace(ctx, rec)
}

// Handle answers one client message: it subscribes or unsubscribes the
// connection and returns the reply to send back (an "error" reply for a
// message it cannot act on). An error return is the store's failure.
func (h *Hub) Handle(ctx context.Context, id string, body []byte) ([]byte, error) {
	if len(body) > h.limits.MessageBytes {
		return reply(Reply{Type: "error", Error: &ReplyError{"message_too_large", fmt.Sprintf("a message is at most %d bytes, this one %d", h.limits.MessageBytes, len(body))}})
	}
	var m ClientMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return reply(Reply{Type: "error", Error: &ReplyError{"invalid_json", "the message is not a JSON object: " + err.Error()}})
	}
	if m.Action == "ping" { // keeps an idle connection open (API Gateway closes it after 10 minutes)
		return reply(Reply{Type: "pong"})
	}
	topic, bad := m.topic()
	if bad == nil && m.Action != "subscribe" && m.Action != "unsubscribe" {
		bad = &ReplyError{"invalid_field", fmt.Sprintf("action: want subscribe, unsubscribe or ping, not %q", m.Action)}
	}
	if bad != nil {
		return reply(Reply{Type: "error", Game: m.Game, Tournament: m.Tournament, Round: m.Round, Error: bad})
	}
	var err error
	if m.Action == "subscribe" {
		err = h.subscribe(ctx, id, topic)
	} else {
		err = h.unsubscribe(ctx, id, topic)
	}
	var re *ReplyError
	if errors.As(err, &re) {
		return reply(Reply{Type: "error", Game: m.Game, Tournament: m.Tournament, Round: m.Round, Error: re})
	}
	if err != nil {
		return nil, err
	}
	return reply(Reply{Type: m.Action + "d", Game: m.Game, Tournament: m.Tournament, Round: m.Round})
}

func reply(r Reply) ([]byte, error) { return json.Marshal(r) }

// Error lets a ReplyError travel as an error inside the hub.
func (e *ReplyError) Error() string { return e.Code + ": " + e.Message }

// loadConnection reads a connection item and its topics.
func (h *Hub) loadConnection(ctx context.Context, id string) (*store.Record, *connection, error) {
	rec, err := h.store.Get(ctx, store.ConnectionPK(id), store.ConnectionSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, &ReplyError{"not_found", "this connection is not open (connect again)"}
	}
	if err != nil {
		return nil, nil, err
	}
	var c connection
	if err := json.Unmarshal(rec.Doc, &c); err != nil {
		return nil, nil, fmt.Errorf("live: connection %s: %w", id, err)
	}
	return rec, &c, nil
}

// updateTopics changes a connection's topic list under its version, reading
// again after a lost race (two messages of one connection handled at once).
func (h *Hub) updateTopics(ctx context.Context, id string, change func(rec *store.Record, c *connection) (bool, error)) error {
	for range 8 {
		rec, c, err := h.loadConnection(ctx, id)
		if err != nil {
			return err
		}
		write, err := change(rec, c)
		if err != nil || !write {
			return err
		}
		if rec.Doc, err = json.Marshal(c); err != nil {
			return err
		}
		err = h.store.Put(ctx, rec)
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("live: connection %s: %w", id, store.ErrConflict)
}

// exists checks that the game or event to follow is there.
func (h *Hub) exists(ctx context.Context, topic string) error {
	if tid, _, ok := roundOfTopic(topic); ok {
		// A round may be followed before it is paired (a page opened
		// early): its event must exist.
		topic = store.TournamentPK(tid)
	}
	sk, what := store.MetaSK, "tournament"
	id, ok := store.TournamentOf(topic)
	if !ok {
		sk, what = store.GameSK, "game"
		id, _ = store.GameOf(topic)
	}
	_, err := h.store.Get(ctx, topic, sk)
	if errors.Is(err, store.ErrNotFound) {
		return &ReplyError{"not_found", "no " + what + " " + id}
	}
	return err
}

// subscribe adds topic to the connection: its rate and its subscription
// count are checked on the connection's item first, so a refused message
// costs that one read and writes nothing.
func (h *Hub) subscribe(ctx context.Context, id, topic string) error {
	checked := false
	return h.updateTopics(ctx, id, func(rec *store.Record, c *connection) (bool, error) {
		if slices.Contains(c.Topics, topic) {
			return false, nil
		}
		if len(c.Topics) >= h.limits.Subscriptions {
			return false, &ReplyError{"too_many_subscriptions", fmt.Sprintf("a connection follows at most %d games, events and rounds", h.limits.Subscriptions)}
		}
		if err := h.spend(c); err != nil {
			return false, err
		}
		if !checked { // once: a retry after a lost race need not read it again
			if err := h.exists(ctx, topic); err != nil {
				return false, err
			}
			checked = true
		}
		// The subscription first: a connection item never names one that
		// does not exist, so a disconnect deletes everything it wrote.
		sub := &store.Record{PK: store.SubscriptionPK(topic), SK: store.SubscriptionSK(id), Kind: store.KindSubscription, Version: 1, Expires: rec.Expires}
		if err := h.store.Replace(ctx, sub); err != nil {
			return false, err
		}
		c.Topics = append(c.Topics, topic)
		return true, nil
	})
}

// unsubscribe removes topic from the connection; one it does not follow
// costs the connection's read and writes nothing.
func (h *Hub) unsubscribe(ctx context.Context, id, topic string) error {
	removed := false
	err := h.updateTopics(ctx, id, func(_ *store.Record, c *connection) (bool, error) {
		removed = false
		i := slices.Index(c.Topics, topic)
		if i < 0 {
			return false, nil
		}
		if err := h.spend(c); err != nil {
			return false, err
		}
		c.Topics = slices.Delete(c.Topics, i, i+1)
		removed = true
		return true, nil
	})
	if err != nil || !removed {
		return err
	}
	return h.store.Delete(ctx, store.SubscriptionPK(topic), store.SubscriptionSK(id))
}

// Disconnect deletes a connection and its subscriptions; an unknown
// connection (already cleaned up) is not an error.
func (h *Hub) Disconnect(ctx context.Context, id string) error {
	_, c, err := h.loadConnection(ctx, id)
	var re *ReplyError
	if errors.As(err, &re) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, topic := range c.Topics {
		if err := h.store.Delete(ctx, store.SubscriptionPK(topic), store.SubscriptionSK(id)); err != nil {
			return err
		}
	}
	return h.store.Delete(ctx, store.ConnectionPK(id), store.ConnectionSK)
}

// subscribers lists the connections following a topic: one Query.
func (h *Hub) subscribers(ctx context.Context, topic string) ([]string, error) {
	recs, err := h.store.Query(ctx, store.SubscriptionPK(topic), store.ConnectionPrefix, 0)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, store.SubscriberOf(r.SK))
	}
	return out, nil
}
