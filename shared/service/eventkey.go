package service

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// An event's key (tournament.Key) is 32 random bytes made at its creation
// and kept in its event item, which only the organiser's export shows. Two
// things hang on it:
//
//   - the event's id is derived from it (EventIDOf), so an import that
//     carries the key proves it is of this event: a stranger who knows the
//     public id cannot forge an export of it, nor begin an import under it;
//   - the ids of its games are keyed with it (GameID), so nobody outside the
//     event can name a game before it is paired, and so plant an item there.

// NewEventKey makes the key of a new event and the event id derived from it.
func NewEventKey() (key, tid string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	key = hex.EncodeToString(b)
	return key, EventIDOf(key)
}

// EventIDOf is the id of the event whose key is key: "t" and 16 base32
// characters (80 bits) of a hash of it.
func EventIDOf(key string) string {
	sum := sha256.Sum256([]byte("xqtour event id\n" + key))
	return "t" + idEncoding.EncodeToString(sum[:10])
}

// ProvenKey reports whether t carries the key its id is derived from.
func ProvenKey(t *tournament.Tournament) bool {
	return len(t.Key) == 64 && hmac.Equal([]byte(EventIDOf(t.Key)), []byte(t.ID))
}

// GameKey is what event t's game ids are keyed with: its key, or for an
// event made before events had keys the hash of its organiser's token — a
// secret too (only the organiser's export shows it), which keeps the ids
// such an event pairs from now on unpredictable as well. (A reissued
// organiser token changes the ids of games not yet paired, never of one
// paired: a round's game ids are stored with the round.)
func GameKey(t *tournament.Tournament) string {
	if t.Key != "" {
		return t.Key
	}
	return t.OrganiserTokenHash
}

// GameID is the id of the game of a pairing of event tid, keyed with the
// event's secret key (GameKey): deterministic, so a retried pairing,
// knockout extension or lineup recreates nothing, and unpredictable to
// anyone without the key. "g" and 16 base32 characters of an HMAC-SHA256.
// (Games stored before ids were keyed keep their ids: a round stores its
// pairings' game ids, and nothing computes an existing game's id again.)
func GameID(key, tid string, round, table, number int) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("xqtour game id\n" + tid + "/" + strconv.Itoa(round) + "/" + strconv.Itoa(table) + "/" + strconv.Itoa(number)))
	return "g" + idEncoding.EncodeToString(m.Sum(nil)[:10])
}

// EventGameID is the GameIDFunc of event t's pairings.
func EventGameID(t *tournament.Tournament) tournament.GameIDFunc {
	key, tid := GameKey(t), t.ID
	return func(round, table, g int) string { return GameID(key, tid, round, table, g) }
}

// KeyedGames bounds the game numbers pairingsGame tries at one table: a
// knockout match's regular and additional games stay well below it, and a
// game beyond it is still found through its round.
const KeyedGames = 64

// PairingsGame reports whether sg is the game its link's pairing made,
// before its end writes that table's result. A keyed id proves it at the
// cost of the event item (one small read): only the event's key makes it.
// An id made otherwise (before ids were keyed, or keyed with an organiser
// token hash since reissued) is looked up in its round, once, at its end.
func (s *Service) PairingsGame(ctx context.Context, sg *games.Item) (bool, error) {
	l := sg.Link
	t, _, err := s.Tournament(ctx, l.Tournament)
	var e *command.Error
	if errors.As(err, &e) && e.Kind == command.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if key := GameKey(t); key != "" {
		for n := 1; n <= KeyedGames; n++ {
			if GameID(key, t.ID, l.Round, l.Table, n) == sg.ID {
				return true, nil
			}
		}
	}
	var r tournament.Round
	if _, err := s.get(ctx, store.TournamentPK(t.ID), store.RoundSK(l.Round), "round", &r); errors.As(err, &e) && e.Kind == command.NotFound {
		return false, nil
	} else if err != nil {
		return false, err
	}
	for _, p := range r.Pairings {
		if p.GameID == sg.ID && p.Table == l.Table {
			return true, nil
		}
	}
	return false, nil
}
