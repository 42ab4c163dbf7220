package embedded

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"time"

	"github.com/truora/minidyn/server"
)

// Files in a data directory.
const (
	snapshotFile  = "snapshot.bin"
	snapshotMagic = "xqtour-embedded-snapshot-v1\n"
)

// CompactBytes is how much the log may grow before it is folded into the
// snapshot, or half the snapshot's size if that is more: compaction rewrites
// the whole table, so it waits until the log has grown in proportion, and
// its cost per write stays the same however large the table is. A restart
// replays at most that much log after the snapshot.
const CompactBytes = 16 << 20

// compactEvery is how often the size of the log is checked.
const compactEvery = 5 * time.Second

// Open is Start with durability: the table is restored from dir (its snapshot,
// then its log), and from then on every successful write is in dir's log,
// fsync'd, before its answer is sent. The log is folded into the snapshot when
// it has grown enough (see CompactBytes) and when the server closes.
func Open(addr, dir string) (*Server, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("embedded dynamodb: %w", err)
	}
	s := newServer()
	s.dir = dir
	// Loading builds the whole heap at once and nearly all of it stays live:
	// collecting meanwhile would only trace it again and again. The memory
	// limit still makes the collector run should the heap grow past it.
	gc, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(8<<30)
	next, err := s.restore()
	debug.SetGCPercent(gc)
	debug.SetMemoryLimit(limit)
	if err != nil {
		return nil, fmt.Errorf("embedded dynamodb: restore %s: %w", dir, err)
	}
	if s.wal, err = openWAL(dir, next); err != nil {
		return nil, fmt.Errorf("embedded dynamodb: %w", err)
	}
	s.hook()
	s.ddb.SetTableActivationDelay(TableActivationDelay) // tables replayed above were ACTIVE already
	s.stop = make(chan struct{})
	s.stopped = make(chan struct{})
	go s.compactLoop()
	if err := s.listen(addr); err != nil {
		close(s.stop)
		<-s.stopped
		_ = s.wal.close()
		return nil, err
	}
	return s, nil
}

// restore loads the snapshot and replays the log segments after it, and
// returns the number the next segment takes. A torn record at the end of the
// newest segment (a crash mid-write) is cut off; anything else unreadable is
// an error rather than silently lost data.
func (s *Server) restore() (uint64, error) {
	next := uint64(1)
	f, err := os.Open(filepath.Join(s.dir, snapshotFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return 0, err
	default:
		if fi, err := f.Stat(); err == nil {
			s.snapshotSize.Store(fi.Size())
		}
		next, err = s.loadSnapshot(f)
		f.Close()
		if err != nil {
			return 0, fmt.Errorf("snapshot: %w", err)
		}
	}
	segs, err := segments(s.dir)
	if err != nil {
		return 0, err
	}
	for i, seg := range segs {
		path := filepath.Join(s.dir, segmentName(seg))
		if seg < next { // folded into the snapshot already
			if err := os.Remove(path); err != nil {
				return 0, err
			}
			continue
		}
		valid, err := s.replaySegment(path)
		if valid > 0 {
			s.logged.Store(true) // the snapshot is behind: fold the log in at close
		}
		if errors.Is(err, errTorn) {
			if i != len(segs)-1 {
				return 0, fmt.Errorf("%s: damaged record at byte %d before the newest segment", path, valid)
			}
			if err := truncate(path, valid); err != nil {
				return 0, err
			}
		} else if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		next = seg + 1
	}
	return next, nil
}

func (s *Server) loadSnapshot(f *os.File) (uint64, error) {
	r := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, len(snapshotMagic)+8)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic[:len(snapshotMagic)]) != snapshotMagic {
		return 0, errors.New("not a snapshot of this format")
	}
	next := uint64(0)
	for _, b := range magic[len(snapshotMagic):] {
		next = next<<8 | uint64(b)
	}
	if _, err := s.replay(r); err != nil {
		return 0, err // written whole and renamed into place: never torn
	}
	return next, nil
}

// replaySegment applies a segment's records and returns how many bytes of it
// are whole records.
func (s *Server) replaySegment(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return s.replay(bufio.NewReaderSize(f, 1<<20))
}

// decoded is one record read and decoded, ready to apply.
type decoded struct {
	size    int
	changes []server.Change
	schema  []byte
	err     error
}

// replay applies records until the end and returns how many bytes were
// whole records. One goroutine reads and decodes while this one applies, so
// a restart uses both of a laptop's cores.
func (s *Server) replay(r *bufio.Reader) (int64, error) {
	recs := make(chan decoded, 16)
	go func() {
		defer close(recs)
		for {
			payload, err := readFrame(r)
			d := decoded{size: frameHeader + len(payload), err: err}
			switch {
			case err != nil:
			case len(payload) == 0:
				d.err = errCorrupt
			case payload[0] == recChanges:
				d.changes, d.err = decodeChanges(payload[1:])
			case payload[0] == recSchema:
				d.schema = payload
			default:
				d.err = fmt.Errorf("%w: kind %d", errCorrupt, payload[0])
			}
			recs <- d
			if d.err != nil {
				return
			}
		}
	}()
	defer func() {
		for range recs { // let the reader finish if applying stopped early
		}
	}()
	var valid int64
	for d := range recs {
		if d.err == io.EOF {
			return valid, nil
		}
		if d.err != nil {
			return valid, d.err
		}
		var err error
		if d.schema != nil {
			err = s.applySchema(d.schema)
		} else {
			err = s.ddb.Restore(d.changes)
		}
		if err != nil {
			return valid, err
		}
		valid += int64(d.size)
	}
	return valid, nil
}

func truncate(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		return err
	}
	return f.Sync()
}

// applySchema replays a CreateTable, UpdateTable or DeleteTable record.
func (s *Server) applySchema(payload []byte) error {
	op, body, err := decodeSchema(payload[1:])
	if err != nil {
		return err
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	s.ddb.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("replay %s: %s", op, rec.Body.String())
	}
	s.schema = append(s.schema, payload)
	return nil
}

// Compact folds the log into a new snapshot: it writes every item as of one
// instant to a temporary file, fsyncs it and renames it over the snapshot,
// then deletes the log segments the snapshot holds. Writes go on meanwhile,
// into a new segment. Without a data directory it does nothing.
func (s *Server) Compact() error {
	if s.wal == nil {
		return nil
	}
	s.compacting.Lock()
	defer s.compacting.Unlock()

	s.schemaMu.RLock()
	schema := append([][]byte(nil), s.schema...)
	var next uint64
	refs, err := s.ddb.Freeze(func() error {
		var err error
		next, err = s.wal.rotate()
		s.logged.Store(false) // under the engine's lock: a later write sets it again
		return err
	})
	s.schemaMu.RUnlock()
	if err != nil {
		return err
	}

	tmp, err := os.CreateTemp(s.dir, ".snapshot-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	head := []byte(snapshotMagic)
	for i := 7; i >= 0; i-- {
		head = append(head, byte(next>>(8*i)))
	}
	_, err = w.Write(head)
	for _, rec := range schema {
		if err == nil {
			_, err = w.Write(appendFrame(nil, rec))
		}
	}
	// In key order, so a restore appends each key to its partition.
	slices.SortFunc(refs, func(a, b server.ItemRef) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Key, b.Key))
	})
	const batch = 1000
	changes := make([]server.Change, 0, batch)
	var frame []byte
	for i := 0; i < len(refs) && err == nil; i += batch {
		changes = changes[:0]
		for _, ref := range refs[i:min(i+batch, len(refs))] {
			changes = append(changes, server.Change{Table: ref.Table, Key: ref.Key, Item: ref.Item()})
		}
		frame = appendFrame(frame[:0], encodeChanges(nil, changes))
		_, err = w.Write(frame)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	var size int64
	if err == nil {
		var fi os.FileInfo
		if fi, err = tmp.Stat(); err == nil {
			size = fi.Size()
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(s.dir, snapshotFile))
	}
	if err == nil {
		err = syncDir(s.dir)
	}
	if err != nil {
		return fmt.Errorf("embedded dynamodb: snapshot: %w", err)
	}
	s.snapshotSize.Store(size)
	// The snapshot holds everything before segment next; once the flusher
	// has moved on to it, the older segments can go.
	if err := s.wal.waitSegment(next); err != nil {
		return err
	}
	segs, err := segments(s.dir)
	if err != nil {
		return err
	}
	for _, seg := range segs {
		if seg < next {
			if err := os.Remove(filepath.Join(s.dir, segmentName(seg))); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Server) compactLoop() {
	defer close(s.stopped)
	tick := time.NewTicker(compactEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
		}
		if s.wal.size() >= max(CompactBytes, s.snapshotSize.Load()/2) {
			if err := s.Compact(); err != nil && s.OnError != nil {
				s.OnError(err)
			}
		}
	}
}
