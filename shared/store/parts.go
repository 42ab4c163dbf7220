package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Split documents and torn reads.
//
// A document over MaxPart is a head item and continuation items ("parts"),
// written together in one transaction. Reading them is not one operation: the
// head comes from GetItem, BatchGetItem or a Query page, its parts from a
// Query, and a writer may commit between the two. Each part therefore carries
// the version its head was written with (and the head's TTL), and a reader
// joins a head only with parts of that version, as many as the head counts.
// A mismatch is a torn read: the head is read again, with its parts, at most
// tornReads times; a document that keeps changing under the reader is
// ErrUnavailable (retry later), never a mix of two writes.
//
// Parts written before parts carried versions have version 0; they are
// accepted when every part of the head has it (such a document was written
// whole by one transaction, and any later write restamps all its parts).

// tornReads bounds how often one read of a split document is attempted.
const tornReads = 5

// errTorn: the parts read do not belong to the head read.
var errTorn = fmt.Errorf("%w: a split document changed while it was read", ErrUnavailable)

// checkParts reports whether parts, in SK order, are exactly head's: its
// count of them, numbered from 1, each written with the head's version.
func checkParts(head *Record, parts []*Record) error {
	if len(parts) != head.Parts {
		return fmt.Errorf("%s/%s has %d of its %d parts: %w", head.PK, head.SK, len(parts), head.Parts, errTorn)
	}
	legacy := true
	for _, p := range parts {
		legacy = legacy && p.Version == 0
	}
	for i, p := range parts {
		if p.SK != partSK(head.SK, i+1) || (!legacy && p.Version != head.Version) {
			return fmt.Errorf("%s/%s at version %d: part %s is at version %d: %w", head.PK, head.SK, head.Version, p.SK, p.Version, errTorn)
		}
	}
	return nil
}

type tornAttemptKey struct{}

// rereadTorn reads r again (Get, which joins it) after a torn read, counting
// the attempts in ctx so that the retries of one read stay bounded.
func (s *Store) rereadTorn(ctx context.Context, r *Record, err error) (*Record, error) {
	n, _ := ctx.Value(tornAttemptKey{}).(int)
	if n+1 >= tornReads {
		return nil, fmt.Errorf("store: read %s/%s %d times: %w", r.PK, r.SK, tornReads, err)
	}
	return s.Get(context.WithValue(ctx, tornAttemptKey{}, n+1), r.PK, r.SK)
}

// joined is r joined with its parts, read again while the read is torn.
func (s *Store) joined(ctx context.Context, r *Record) (*Record, error) {
	err := s.join(ctx, r)
	if errors.Is(err, errTorn) {
		return s.rereadTorn(ctx, r, err)
	}
	return r, err
}

// joinParts appends continuation items to their heads, in SK order, and
// returns the heads whose parts do not match them (read while a writer
// changed the document); their Doc is only the head's share.
func joinParts(raw []*Record) (out, torn []*Record) {
	out = raw[:0]
	var (
		head  *Record
		parts []*Record
	)
	finish := func() {
		if head == nil || head.Parts == 0 { // parts under an unsplit head are not its own
			return
		}
		if checkParts(head, parts) != nil {
			torn = append(torn, head)
			return
		}
		for _, p := range parts {
			head.Doc = append(head.Doc, p.Doc...)
		}
	}
	for _, r := range raw {
		if r.Kind == KindPart && strings.Contains(r.SK, partSuffix) {
			if head != nil && strings.HasPrefix(r.SK, head.SK+partSuffix) {
				parts = append(parts, r)
			}
			continue
		}
		finish()
		head, parts = r, nil
		out = append(out, r)
	}
	finish()
	// A head's parts share its SK as their prefix, so they are always in range.
	return out, torn
}

// joinQueried joins a Query's items and reads every torn document again;
// one deleted meanwhile is left out.
func (s *Store) joinQueried(ctx context.Context, raw []*Record) ([]*Record, error) {
	out, torn := joinParts(raw)
	if len(torn) == 0 {
		return out, nil
	}
	fresh := make(map[*Record]*Record, len(torn))
	for _, r := range torn {
		f, err := s.rereadTorn(ctx, r, errTorn)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		fresh[r] = f
	}
	kept := out[:0]
	for _, r := range out {
		if f, ok := fresh[r]; ok {
			r = f
		}
		if r != nil {
			kept = append(kept, r)
		}
	}
	return kept, nil
}
