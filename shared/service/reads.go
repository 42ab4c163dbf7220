package service

import (
	"context"

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
