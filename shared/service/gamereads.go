package service

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"

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
// "black", each with its token; it expires by the games' retention. A
// position the game refuses is the refusal of the request's fen field.
func (s *Service) CreateGame(ctx context.Context, setup game.Setup) (StandaloneGame, error) {
	g, err := game.New(setup)
	if re := (*game.RuleError)(nil); errors.As(err, &re) && re.Code == game.CodeInvalidArgument {
		return StandaloneGame{}, &command.Error{Kind: command.Invalid, Code: "invalid_field", Message: "fen: " + re.Message, Rule: re.Rule}
	} else if err != nil {
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

// RecordInfo is the header a game's record gives (N-…): what the game's
// link holds, "Red" and "Black" for a side it does not name, and for an
// event game its event's and players' names as their items now say (read
// in one request; a name whose item is gone leaves what the link says)
// and its round.
func (s *Service) RecordInfo(ctx context.Context, sg *games.Item) (game.RecordInfo, error) {
	info := game.RecordInfo{Red: "Red", Black: "Black"}
	if i := sg.Link.Info; i != nil {
		info = game.RecordInfo{Event: i.Event, Site: i.Site, Date: i.Date, Round: i.Round, Red: cmp.Or(i.Red, "Red"), Black: cmp.Or(i.Black, "Black")}
	}
	tid := sg.Link.Tournament
	if tid == "" {
		return info, nil
	}
	ev := store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}
	red := store.Key{PK: store.TournamentPK(tid), SK: store.PlayerSK(sg.Link.Red)}
	black := store.Key{PK: store.TournamentPK(tid), SK: store.PlayerSK(sg.Link.Black)}
	got, err := s.store.GetMany(ctx, ev, red, black)
	if err != nil {
		return game.RecordInfo{}, err
	}
	var t tournament.Tournament
	if r := got[ev]; r != nil && decodeItem(r, &t) == nil {
		info.Event = cmp.Or(t.Settings.Name, info.Event)
	}
	for key, name := range map[store.Key]*string{red: &info.Red, black: &info.Black} {
		var p tournament.Player
		if r := got[key]; r != nil && decodeItem(r, &p) == nil {
			*name = cmp.Or(p.Name, *name)
		}
	}
	info.Round = strconv.Itoa(sg.Link.Round)
	return info, nil
}
