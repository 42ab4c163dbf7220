package viewcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// What a view holds: a table view (a round's pairings, standings, a
// crosstable) is its head, the response without its rows as JSON, and its
// rows, ChunkRows a chunk, as gzipped JSON (RowsBuild, ReadRows); a
// response view is a whole answer gzipped, in pieces (WholeBuild, Whole).
// Which table view a query names and what it depends on are here too
// (TableName, TableBuild); the rows' shapes are the HTTP layer's.

// ChunkRows is how many rows of a table one chunk item holds: a 500-row
// crosstable of 11 rounds is ~600 KB of JSON, some 50 KB gzipped, well
// inside an item.
const ChunkRows = 500

// ReadRows reads the rows [offset, offset+limit) of view v as built (limit
// < 0: to the end), reading only the chunks that hold them; a chunk gone
// is ErrGone.
func ReadRows[R any](ctx context.Context, v *View, offset, limit int) ([]R, error) {
	end := v.Rows()
	if limit >= 0 {
		end = min(end, offset+limit)
	}
	if offset >= end {
		return []R{}, nil
	}
	first := offset / ChunkRows
	chunks, err := v.Read(ctx, first, (end-1)/ChunkRows+1)
	if err != nil {
		return nil, err
	}
	out := make([]R, 0, end-offset)
	for i, chunk := range chunks {
		var rows []R
		if err := gunzipJSON(chunk, &rows); err != nil {
			return nil, fmt.Errorf("decode view %s chunk %d: %w", v.Name(), first+i, err)
		}
		for j, r := range rows {
			if at := (first+i)*ChunkRows + j; at >= offset && at < end {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// Page reads a page of a table view, its rows [offset, offset+limit)
// (limit < 0: to the end) and its head decoded into H, when v is current
// at now and whole; ok false (no error) when the event must be read
// instead: no view, a stale one, or its chunks gone.
func Page[H, R any](ctx context.Context, v *View, now int64, offset, limit int) (head H, rows []R, ok bool, err error) {
	if v == nil || !v.Current(now) {
		return head, nil, false, nil
	}
	rows, err = ReadRows[R](ctx, v, offset, limit)
	if err == nil {
		err = v.Head(&head)
	}
	if errors.Is(err, ErrGone) {
		return head, nil, false, nil
	}
	return head, rows, err == nil, err
}

// RowsBuild is the build of a table view: head (the response without its
// rows) as JSON, rows in chunks of ChunkRows, deps and pending as Build
// has them, startsAt the round's start.
func RowsBuild[R any](head any, rows []R, deps []string, pending *Pending, startsAt int64) (Build, error) {
	h, err := json.Marshal(head)
	if err != nil {
		return Build{}, err
	}
	b := Build{Head: h, Rows: len(rows), Deps: deps, Pending: pending, StartsAt: startsAt}
	for i := 0; i < len(rows); i += ChunkRows {
		gz, err := gzipJSON(rows[i:min(len(rows), i+ChunkRows)])
		if err != nil {
			return Build{}, err
		}
		b.Chunks = append(b.Chunks, gz)
	}
	return b, nil
}

// TableName is the view of a players' table (kind "standings" or
// "crosstable") that a query's ?round= and ?live= name: after round n
// (kind#nnnn), live (kind#live) or by default after the last complete
// round (kind#last). A malformed query names none (false): the event's
// read reports it.
func TableName(kind, round, live string) (string, bool) {
	switch {
	case round != "":
		n, err := strconv.Atoi(round)
		if err != nil || n < 1 || n > 9999 {
			return "", false
		}
		return fmt.Sprintf("%s#%04d", kind, n), true
	case live == "true":
		return kind + "#live", true
	case live != "" && live != "false":
		return "", false
	}
	return kind + "#last", true
}

// TableBuild is the build of the players' table view v is (TableName):
// after round n of ev, head without its rows, and the rows. The default
// table depends on the round after it too (PendingAfter); the live one on
// every round paired.
func TableBuild[R any](v *View, ev *service.Event, n int, head any, rows []R) (Build, error) {
	switch {
	case strings.HasSuffix(v.Name(), "#last"):
		return RowsBuild(head, rows, TableDeps(n), PendingAfter(ev, n), 0)
	case strings.HasSuffix(v.Name(), "#live"):
		return RowsBuild(head, rows, TableDeps(ev.T.Round), nil, 0)
	}
	return RowsBuild(head, rows, TableDeps(n), nil, 0)
}

// PendingAfter is the Pending of the default table after round n of ev:
// round n+1 when it is paired (it is not complete, or the table would be
// after it), with its games that have no result.
func PendingAfter(ev *service.Event, n int) *Pending {
	r := ev.Round(n + 1)
	if r == nil {
		return nil // pairing it writes the event item: the event's counter moves
	}
	return &Pending{Round: n + 1, Missing: len(r.Pairings) - ev.H.Finished(r)}
}

// WholeBuild is the build of a response view: head as JSON, body gzipped
// in pieces, depending on every counter of the event up to round n.
func WholeBuild(head any, body []byte, n int) (Build, error) {
	h, err := json.Marshal(head)
	if err != nil {
		return Build{}, err
	}
	pieces := Pieces(Compress(body))
	return Build{Head: h, Rows: len(pieces), Chunks: pieces, Deps: TableDeps(n)}, nil
}

// Whole reads a response view's body as built (WholeBuild); its pieces
// gone is ErrGone.
func (v *View) Whole(ctx context.Context) ([]byte, error) {
	pieces, err := v.Read(ctx, 0, v.Chunks())
	if err != nil {
		return nil, err
	}
	return Decompress(bytes.Join(pieces, nil))
}

// ResponseName is the response view of route kind for a request whose
// query, as the route reads it, is key: the key is hashed, so a view's
// name is short whatever the query.
func ResponseName(kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	return "resp#" + kind + "#" + hex.EncodeToString(sum[:12])
}

// NextStart is when the clock alone next changes something a read of ev
// shows, and so when a response view built from it stops being current:
// the earliest round start after now (0: none).
func NextStart(ev *service.Event, now int64) int64 {
	next := int64(0)
	for _, r := range ev.H.Rounds {
		if r.StartsAt > now && (next == 0 || r.StartsAt < next) {
			next = r.StartsAt
		}
	}
	return next
}

// KnownGroup reports whether group is absent or names a group of ev: a
// view kept per made-up name would let a stranger fill the views partition.
func KnownGroup(ev *service.Event, group string) bool {
	return group == "" || slices.Contains(tournament.GroupNames(ev.T, ev.H), group)
}

// gzipJSON is v as JSON (HTML left unescaped), gzipped.
func gzipJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return Compress(buf.Bytes()), nil
}

func gunzipJSON(data []byte, v any) error {
	body, err := Decompress(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(body, v)
}
