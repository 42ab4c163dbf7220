package service

import (
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// StandaloneGame is CreateGame's answer: the game and its two seats'
// tokens, shown once.
type StandaloneGame struct {
	Game       *games.Item
	RedToken   string
	BlackToken string
}

// CreateGame makes a standalone game of setup, whose seats are "red" and
// "black", each with its token; it expires by the games' retention.
func (s *Service) CreateGame(ctx context.Context, setup game.Setup) (StandaloneGame, error) {
	g, err := game.New(setup)
	if err != nil {
		return StandaloneGame{}, err
	}
	gid := NewID('g')
	redToken, redHash := NewToken(gid, "red")
	blackToken, blackHash := NewToken(gid, "black")
	link := games.Link{Red: "red", Black: "black", RedHash: redHash, BlackHash: blackHash}
	rec, err := games.Encode(&store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame}, link, g)
	if err != nil {
		return StandaloneGame{}, err
	}
	sg := &games.Item{ID: gid, Link: link, Game: g, Rec: rec}
	rec.Expires = s.Games.TTL(sg, s.now(ctx))
	// A new id: only DynamoDB's own contention can refuse the write.
	if err := command.Retry(func() error { return s.store.Put(ctx, rec) }); err != nil {
		return StandaloneGame{}, err
	}
	return StandaloneGame{Game: sg, RedToken: redToken, BlackToken: blackToken}, nil
}

// GamesByID reads the games of ids in batches of 100 keys, several batches at
// once: the one batch read of games by id. A game not created yet (an
// interrupted pairing) is absent from the answer.
func (s *Service) GamesByID(ctx context.Context, ids []string) (map[string]*games.Item, error) {
	keys := make([]store.Key, len(ids))
	for i, gid := range ids {
		keys[i] = store.Key{PK: store.GamePK(gid), SK: store.GameSK}
	}
	chunks := slices.Collect(slices.Chunk(keys, 100))
	found := make([]map[store.Key]*store.Record, len(chunks))
	err := InParallel(len(chunks), func(i int) error {
		var err error
		found[i], err = s.store.GetMany(ctx, chunks[i]...)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]*games.Item, len(keys))
	for _, recs := range found {
		for k, rec := range recs {
			gid, _ := store.GameOf(k.PK)
			sg, err := games.Decode(gid, rec)
			if err != nil {
				return nil, err
			}
			out[gid] = sg
		}
	}
	return out, nil
}

// GameNames are the names an event game's record gives: its event's and
// its players', each "" when its item is gone.
type GameNames struct {
	Event, Red, Black string
}

// NamesOf reads the names of event game sg's event and players in one
// request.
func (s *Service) NamesOf(ctx context.Context, sg *games.Item) (GameNames, error) {
	tid := sg.Link.Tournament
	ev := store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}
	red := store.Key{PK: store.TournamentPK(tid), SK: store.PlayerSK(sg.Link.Red)}
	black := store.Key{PK: store.TournamentPK(tid), SK: store.PlayerSK(sg.Link.Black)}
	got, err := s.store.GetMany(ctx, ev, red, black)
	if err != nil {
		return GameNames{}, err
	}
	var out GameNames
	var t tournament.Tournament
	if r := got[ev]; r != nil && decodeItem(r, &t) == nil {
		out.Event = t.Settings.Name
	}
	var p tournament.Player
	if r := got[red]; r != nil && decodeItem(r, &p) == nil {
		out.Red = p.Name
	}
	p = tournament.Player{}
	if r := got[black]; r != nil && decodeItem(r, &p) == nil {
		out.Black = p.Name
	}
	return out, nil
}
