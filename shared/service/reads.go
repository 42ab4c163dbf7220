package service

import (
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// RoundResults reads round n's result items alone (one key range of the
// event, ~200 bytes a table), by table.
func (s *Service) RoundResults(ctx context.Context, tid string, n int) (map[int]tournament.Result, error) {
	recs, err := s.store.Query(ctx, store.TournamentPK(tid), store.ResultsOfRound(n), 0)
	if err != nil {
		return nil, err
	}
	out := make(map[int]tournament.Result, len(recs))
	for _, rec := range recs {
		var res tournament.Result
		if err := decodeItem(rec, &res); err != nil {
			return nil, err
		}
		out[res.Table] = res
	}
	return out, nil
}

// GameItems reads the games gids in batches of 100 keys, several batches at
// once (a 10,000-player round is 50 of them); missing games are absent.
func (s *Service) GameItems(ctx context.Context, gids []string) (map[string]*games.Item, error) {
	keys := make([]store.Key, len(gids))
	for i, gid := range gids {
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

// Item reads the item pk/sk into v through its stored shape; a missing item
// is a not-found refusal naming what was looked for.
func (s *Service) Item(ctx context.Context, pk, sk, what string, v any) (*store.Record, error) {
	return s.get(ctx, pk, sk, what, v)
}
