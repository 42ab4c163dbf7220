package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
//
// Staged documents (a Record's Body: a round of any size) are not written
// in the transaction at all. A transaction holds 4 MB, and one request of a
// document's size on its key is that many seconds of the key's 1,000 write
// units (a 50,000-player round is 9 MB: 9,000 units in one request). So the
// body is written first, before the transaction, as parts under a fresh
// build id ("<SK>#~part.<build>.NNN", one PutItem at a time, paced within
// StageRate write units a second), and the transaction writes only the head,
// which names the build and counts its parts. Until the transaction commits
// no head names the build, so a reader sees the old document (or none) whole,
// and after it the new one whole; a build's parts never change, so the
// build id alone tells a head's parts from any other. A write that loses its
// race, or fails, deletes the parts it staged; a write that replaces a build
// deletes the replaced one's parts once it has committed, and sweeps parts of
// builds staged long before its own (a process that died between staging and
// committing); a body unchanged since it was read is not staged again, so a
// change of the head alone (a round's start) writes the head alone.

// tornReads bounds how often one read of a split document is attempted.
const tornReads = 5

// errTorn: the parts read do not belong to the head read.
var errTorn = fmt.Errorf("%w: a split document changed while it was read", ErrUnavailable)

// checkParts reports whether parts, in SK order, are exactly head's: its
// count of them, numbered from 1, each written with the head's version (a
// staged build's parts: each of the head's build).
func checkParts(head *Record, parts []*Record) error {
	if len(parts) != head.Parts {
		return fmt.Errorf("%s/%s has %d of its %d parts: %w", head.PK, head.SK, len(parts), head.Parts, errTorn)
	}
	if head.Build != "" {
		for i, p := range parts {
			if p.SK != buildPartSK(head.SK, head.Build, i+1) {
				return fmt.Errorf("%s/%s of build %s: part %s is not its part %d: %w", head.PK, head.SK, head.Build, p.SK, i+1, errTorn)
			}
		}
		return nil
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
		if head == nil || (head.Parts == 0 && head.Build == "") { // parts under an unsplit head are not its own
			return
		}
		if checkParts(head, parts) != nil {
			torn = append(torn, head)
			return
		}
		head.attach(parts)
	}
	for _, r := range raw {
		if r.Kind == KindPart && strings.Contains(r.SK, partSuffix) {
			if head != nil && ownPart(head, r.SK) { // another build's are no one's: skipped
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

// attach joins checked parts to their head: a split document's continue its
// Doc, a staged build's are its Body (as read, so an unchanged Body is not
// staged again).
func (r *Record) attach(parts []*Record) {
	if r.Build == "" {
		for _, p := range parts {
			r.Doc = append(r.Doc, p.Doc...)
		}
		return
	}
	body := make([]byte, 0, len(parts)*StagedPart)
	for _, p := range parts {
		body = append(body, p.Doc...)
	}
	r.Body, r.staged = body, body
}

// ownPart reports whether sk is the key of one of head's own continuation
// items: of its build when it names one, else of its split document.
// Parts of other builds (staged by a write that lost, or replaced) are
// nobody's: readers skip them and exports leave them out.
func ownPart(head *Record, sk string) bool {
	if head.Build != "" {
		return strings.HasPrefix(sk, partsPrefix(head))
	}
	rest, ok := strings.CutPrefix(sk, head.SK+partSuffix)
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// partsPrefix is the key prefix of head's own continuation items.
func partsPrefix(head *Record) string {
	if head.Build != "" {
		return buildPrefix(head.SK, head.Build)
	}
	return head.SK + partSuffix
}

// buildPrefix is the key prefix of build's parts of the document under sk.
// The '.' after the suffix sorts before a split document's digits, and the
// build id begins with its time, so one key range holds the builds staged
// before a time (sweepBuilds).
func buildPrefix(sk, build string) string { return sk + partSuffix + "." + build + "." }

// buildPartSK is the sort key of part i (from 1) of build of the document under sk.
func buildPartSK(sk, build string, i int) string {
	return fmt.Sprintf("%s%03d", buildPrefix(sk, build), i)
}

// StagedPart is how much of a staged body one part holds: MaxPart, a
// variable so that a test stages a small document in many parts.
var StagedPart = MaxPart

// StageRate is how many write units a second a staged write spends on its
// key, parts and deletions together: DynamoDB serves 1,000 a second per
// partition key, and the rest is left to the event's other writers
// (registrations, results) meanwhile. A variable so a test may pace faster.
var StageRate = 700.0

// staleBuild is how much older than a write's own build another build must
// be for the write to sweep its parts, once the write has committed. A build
// staged before this write's either was published and has been replaced, or
// belongs to a write that read the head before this one committed, whose
// condition can no longer hold: its parts are nobody's, now or later. A
// build staged after this write committed is newer than this write's own.
// The margin is for clocks of two processes that disagree.
const staleBuild = time.Minute

// newBuild names a build staged now: its time in milliseconds, fixed width
// so that builds sort by time, and randomness to tell apart builds staged in
// the same millisecond.
func newBuild(now time.Time) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%011x%s", now.UnixMilli(), hex.EncodeToString(b))
}

// writeUnits is what a write of size bytes costs: one unit a started KB.
func writeUnits(size int) float64 { return math.Ceil(float64(max(size, 1)) / 1024) }

// pacer spaces one call's requests on a key so that their units stay
// within StageRate a second: request k is sent once the units of those
// before it have had their time. The first goes at once (an idle key has
// its second's units).
type pacer struct {
	start time.Time
	units float64
}

func (p *pacer) wait(ctx context.Context, units float64) error {
	if p.start.IsZero() {
		p.start = time.Now()
	}
	due := p.start.Add(time.Duration(p.units / StageRate * float64(time.Second)))
	p.units += units
	if d := time.Until(due); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// staging is one build a write staged: where, and how many parts.
type staging struct {
	pk, sk, build string
	parts         int
	expires       int64
}

// stage writes body as the parts of a new build of the document under
// r's key, one request at a time, paced. On failure it deletes what it wrote.
func (s *Store) stage(ctx context.Context, p *pacer, r *Record) (staging, error) {
	st := staging{pk: r.PK, sk: r.SK, build: newBuild(time.Now()), expires: r.Expires}
	for off := 0; off == 0 || off < len(r.Body); off += StagedPart {
		part := &Record{PK: r.PK, SK: buildPartSK(r.SK, st.build, st.parts+1), Kind: KindPart, Doc: r.Body[off:min(off+StagedPart, len(r.Body))], Expires: r.Expires}
		if err := p.wait(ctx, writeUnits(part.Size())); err != nil {
			s.drop(ctx, p, st)
			return staging{}, err
		}
		if err := s.putPart(ctx, part); err != nil {
			s.drop(ctx, p, st)
			return staging{}, err
		}
		st.parts++
	}
	return st, nil
}

// putPart writes one part of a fresh build. A build's parts are new items:
// a fresh build id names none that exist, so a refused put is either this
// put's own, applied by an attempt whose answer was lost and met when the
// SDK tried again (ConditionalCheckFailed), or a put that applied nothing
// because it lost to a transaction in flight (TransactionConflict; DynamoDB
// answers it for a conditional write, and so does the embedded store's
// conflict fault). Both surface as ErrConflict, and only the table tells
// them apart: the part is read back, and put again while it is not there.
// Taking every conflict for its own put (as this did) published heads
// naming a part that was never written: a round no read could join again.
func (s *Store) putPart(ctx context.Context, part *Record) error {
	var err error
	for attempt := range partPuts {
		if attempt > 0 {
			time.Sleep(jitter(20 * time.Millisecond << attempt))
		}
		_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: part.item(1), ConditionExpression: aws.String("attribute_not_exists(PK)")})
		if err = wrap("stage "+part.PK+"/"+part.SK, err); !errors.Is(err, ErrConflict) {
			return err
		}
		out, gerr := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(part.PK, part.SK), ConsistentRead: aws.Bool(true),
			ProjectionExpression: aws.String("PK")})
		if gerr != nil {
			return wrap("get "+part.PK+"/"+part.SK, gerr)
		}
		if out.Item != nil {
			return nil // this put's own, applied by an earlier attempt
		}
	}
	return err
}

// partPuts bounds the puts of one part that lose to a transaction in flight.
const partPuts = 5

// drop deletes a build's parts, paced, best effort: what it cannot delete
// is nobody's part (readers skip it) until a later write sweeps it.
func (s *Store) drop(ctx context.Context, p *pacer, st staging) {
	ctx = context.WithoutCancel(ctx)
	for i := 1; i <= st.parts; i++ {
		if p.wait(ctx, writeUnits(StagedPart)) != nil {
			return
		}
		_, _ = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &s.table, Key: key(st.pk, buildPartSK(st.sk, st.build, i))})
	}
}

// sweepBuilds deletes the parts of builds of the document under pk/sk
// staged staleBuild or more before build (this write's, committed): left by
// a process that died between staging and committing. The key range is
// empty but for such leftovers, so the sweep costs one small read.
func (s *Store) sweepBuilds(ctx context.Context, p *pacer, pk, sk, build string) {
	ms, err := strconv.ParseInt(build[:11], 16, 64)
	if err != nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	before := fmt.Sprintf("%011x", time.UnixMilli(ms).Add(-staleBuild).UnixMilli())
	in := &dynamodb.QueryInput{
		TableName:              &s.table,
		ConsistentRead:         aws.Bool(true),
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: pk},
			":lo": &types.AttributeValueMemberS{Value: sk + partSuffix + "."},
			":hi": &types.AttributeValueMemberS{Value: sk + partSuffix + "." + before},
		},
		ProjectionExpression: aws.String("PK, SK"),
	}
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return
	}
	for _, it := range out.Items {
		old := newItem(it)
		if p.wait(ctx, writeUnits(StagedPart)) != nil {
			return
		}
		_, _ = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &s.table, Key: key(old.PK, old.SK)})
	}
}
