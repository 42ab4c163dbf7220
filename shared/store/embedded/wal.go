package embedded

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A record is framed as: payload length (uint32 LE), CRC-32C of the payload
// (uint32 LE), payload. A record whose frame is cut short or whose checksum
// does not match is torn: it was being written when the process died.

const frameHeader = 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maxRecord bounds a record's length, so a torn length field cannot make the
// reader allocate gigabytes (a 100-item transaction of 400 KB items is 40 MB).
const maxRecord = 64 << 20

func appendFrame(b, payload []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(payload, castagnoli))
	return append(b, payload...)
}

var errTorn = errors.New("embedded: torn record")

// readFrame reads one record; io.EOF at a clean end, errTorn for a partial or
// damaged record.
func readFrame(r *bufio.Reader) ([]byte, error) {
	var h [frameHeader]byte
	n, err := io.ReadFull(r, h[:])
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil || n < frameHeader {
		return nil, errTorn
	}
	size := binary.LittleEndian.Uint32(h[:4])
	if size > maxRecord {
		return nil, errTorn
	}
	payload := make([]byte, size)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, errTorn
	}
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(h[4:]) {
		return nil, errTorn
	}
	return payload, nil
}

func segmentName(n uint64) string { return fmt.Sprintf("wal-%016d.log", n) }

// segments lists the log segments in dir by number.
func segments(dir string) ([]uint64, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []uint64
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "wal-") || !strings.HasSuffix(name, ".log") {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(name, "wal-"), ".log"), 10, 64)
		if err == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// wal is the append-only log. Writers append records under the engine's lock
// (so the log's order is the commit order) and then wait, outside it, until
// their record is on disk. One flusher goroutine writes whatever has
// accumulated and fsyncs once for all of it: group commit.
type wal struct {
	dir  string
	mu   sync.Mutex
	cond *sync.Cond // durable, seg or err changed
	kick chan struct{}
	done chan struct{}

	buf, spare []byte // framed records not yet written; the flusher's other buffer
	rotateAt   int    // offset in buf where the next segment starts, or -1
	appended   uint64 // records appended so far
	durable    uint64 // records fsync'd so far
	head       uint64 // segment new appends go to
	seg        uint64 // segment the flusher writes
	written    int64  // bytes written since the last rotation
	err        error  // sticky: once the disk failed, nothing is acknowledged
	closed     bool

	file *os.File // owned by the flusher
}

// openWAL starts a new segment numbered seg in dir.
func openWAL(dir string, seg uint64) (*wal, error) {
	f, err := createSegment(dir, seg)
	if err != nil {
		return nil, err
	}
	w := &wal{dir: dir, kick: make(chan struct{}, 1), done: make(chan struct{}), rotateAt: -1, head: seg, seg: seg, file: f}
	w.cond = sync.NewCond(&w.mu)
	go w.flusher()
	return w, nil
}

func createSegment(dir string, seg uint64) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, segmentName(seg)), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// syncDir makes a created or renamed file's name durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) { // not every OS syncs directories
		return err
	}
	return nil
}

// append adds a record and returns its sequence number.
func (w *wal) append(payload []byte) uint64 {
	w.mu.Lock()
	w.buf = appendFrame(w.buf, payload)
	w.appended++
	seq := w.appended
	w.mu.Unlock()
	w.wake()
	return seq
}

func (w *wal) wake() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// last returns the sequence number of the latest record appended.
func (w *wal) last() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.appended
}

// wait blocks until record seq is on disk.
func (w *wal) wait(seq uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.durable < seq && w.err == nil {
		w.cond.Wait()
	}
	return w.err
}

// rotate starts a new segment at this point of the log and returns its
// number: every record appended before is in an older segment.
func (w *wal) rotate() (uint64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if w.rotateAt >= 0 {
		return 0, errors.New("embedded: a log rotation is already pending")
	}
	w.rotateAt = len(w.buf)
	w.head++
	w.wake()
	return w.head, nil
}

// waitSegment blocks until the flusher writes segment seg (the older ones are closed).
func (w *wal) waitSegment(seg uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.seg < seg && w.err == nil {
		w.cond.Wait()
	}
	return w.err
}

// size is how many bytes the log has grown since it last rotated.
func (w *wal) size() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.written + int64(len(w.buf))
}

func (w *wal) flusher() {
	defer close(w.done)
	for {
		w.mu.Lock()
		for len(w.buf) == 0 && w.rotateAt < 0 && !w.closed {
			w.mu.Unlock()
			<-w.kick
			w.mu.Lock()
		}
		if len(w.buf) == 0 && w.rotateAt < 0 && w.closed {
			w.mu.Unlock()
			return
		}
		buf, target, rot, next := w.buf, w.appended, w.rotateAt, w.head
		w.buf, w.spare = w.spare[:0], nil
		w.rotateAt = -1
		err := w.err
		w.mu.Unlock()

		if err == nil {
			err = w.write(buf, rot, next)
		}

		w.mu.Lock()
		w.spare = buf[:0]
		if err != nil && w.err == nil {
			w.err = fmt.Errorf("embedded: write-ahead log: %w", err)
		}
		if w.err == nil {
			w.durable = target
			if rot >= 0 {
				w.seg = next
				w.written = int64(len(buf) - rot)
			} else {
				w.written += int64(len(buf))
			}
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}
}

// write puts buf on disk with one fsync per segment it touches.
func (w *wal) write(buf []byte, rot int, next uint64) error {
	if rot >= 0 {
		if _, err := w.file.Write(buf[:rot]); err != nil {
			return err
		}
		if err := w.file.Sync(); err != nil {
			return err
		}
		if err := w.file.Close(); err != nil {
			return err
		}
		f, err := createSegment(w.dir, next)
		if err != nil {
			return err
		}
		w.file = f
		buf = buf[rot:]
	}
	if len(buf) == 0 {
		return nil
	}
	if _, err := w.file.Write(buf); err != nil {
		return err
	}
	return w.file.Sync()
}

// close flushes what is pending and stops the flusher.
func (w *wal) close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.wake()
	<-w.done
	w.mu.Lock()
	err := w.err
	if w.err == nil { // a write racing the close is refused, not left waiting
		w.err = errors.New("embedded: the log is closed")
	}
	w.cond.Broadcast()
	w.mu.Unlock()
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	return err
}
