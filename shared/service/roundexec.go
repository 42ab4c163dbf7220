package service

import "context"

// A round command's transaction is not all of it: the games of a round
// paired or changed are made after its commit (EnsureGamesAfterCommit,
// under deterministic ids, so a retry makes none twice), and the work a
// command made due is done at once when it can be (CompleteDue), or left
// to the due work's runner (RunDue). These run a command and then that
// work in its order, as every request that pairs, starts or changes a
// round, or sets a lineup, must.

// ExecPair runs cmd as PairRoundOrJob for cred, then the round's follow-up:
// its games made, and a team round paired past its deadline has its
// lineups drawn now (T-3; a failure leaves them to the due work, logged,
// and the pairing stands), the answer then showing the event read again.
// The answer is a Paired, or a PairJobQueued for an event paired as a job.
func (s *Service) ExecPair(ctx context.Context, tid string, cred Credential, cmd PairRound, now int64) (any, error) {
	res, err := s.Exec(ctx, tid, cred, PairRoundOrJob{PairRound: cmd})
	if err != nil {
		return nil, err
	}
	if q, ok := res.(PairJobQueued); ok {
		return q, nil
	}
	p := res.(Paired)
	if err := s.EnsureGamesAfterCommit(ctx, p.Event.T, p.Round, p.Event.H, p.Stored, now); err != nil {
		return nil, err
	}
	ran, err := s.CompleteDue(ctx, nil, p.Due)
	if err != nil {
		s.log.Warn("round paired, its lineups left to the due work", "tournament", tid, "round", p.Round.Number, "err", err.Error())
	}
	if ran {
		if fresh, err := s.Load(ctx, tid); err == nil && fresh.Round(p.Round.Number) != nil {
			p.Event, p.Round = fresh, fresh.Round(p.Round.Number)
		}
	}
	return p, nil
}

// ExecStart runs StartRound{N: n} for cred, then what a start owes: a team
// round's lineups due at its start drawn (T-3; the start stored that work
// as due, so a failure is left to the due work's runner, logged, not
// returned, or a retry would be 409), and the games' clocks started on the
// event read again. A refusal is Exec's, a conflict carrying the round.
func (s *Service) ExecStart(ctx context.Context, tid string, cred Credential, n int, now int64) (RoundOf, error) {
	res, err := s.Exec(ctx, tid, cred, StartRound{N: n})
	if err != nil {
		return RoundOf{}, err
	}
	started := res.(RoundOf)
	ev, r := started.Event, started.Round
	if _, err := s.CompleteDue(ctx, ev, started.Due); err != nil {
		s.log.Warn("round started, its lineups left to the due work", "tournament", tid, "round", n, "err", err.Error())
	}
	if fresh, err := s.Load(ctx, tid); err == nil {
		ev, r = fresh, fresh.Round(n)
	}
	s.StartGames(ctx, ev.T, r, ev.H, now)
	return RoundOf{Event: ev, Round: r}, nil
}

// ExecChange runs cmd for cred, then rewrites the games of the tables it
// changed (each keeps its game id).
func (s *Service) ExecChange(ctx context.Context, tid string, cred Credential, cmd ChangeRound, now int64) (RoundOf, error) {
	res, err := s.Exec(ctx, tid, cred, cmd)
	if err != nil {
		return RoundOf{}, err
	}
	ch := res.(RoundOf)
	return ch, s.EnsureGamesAfterCommit(ctx, ch.Event.T, ch.Round, ch.Event.H, nil, now)
}

// ExecLineup runs cmd for cred, then makes the board games of the matches
// its lineups set; cmd holds what it wrote and the round as stored.
func (s *Service) ExecLineup(ctx context.Context, tid string, cred Credential, cmd *SubmitLineup, now int64) error {
	if _, err := s.Exec(ctx, tid, cred, cmd); err != nil {
		return err
	}
	return s.EnsureGamesAfterCommit(ctx, cmd.Event.T, cmd.Round, cmd.Event.H, nil, now)
}
