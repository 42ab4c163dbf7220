package service_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/service/viewcache"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// storedItem is one line of testdata/stored.golden: an item as the code
// of its day stored it (captured by shared/httpapi's
// TestStoredBytes_Capture before any codec moved).
type storedItem struct {
	PK, SK, Kind string
	Doc          string
}

// readStored reads the captured items.
func readStored(t *testing.T) []*store.Record {
	t.Helper()
	f, err := os.Open("testdata/stored.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*store.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var it storedItem
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatal(err)
		}
		doc, err := base64.StdEncoding.DecodeString(it.Doc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &store.Record{PK: it.PK, SK: it.SK, Kind: it.Kind, Doc: doc})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every item kind a table holds, as the code of its day stored it, decodes
// with today's codec and encodes back to the very bytes it was stored as:
// an event or game stored by an earlier release reads and writes unchanged.
func TestStoredBytes_DecodeAndReencode(t *testing.T) {
	recs := readStored(t)
	seen := map[string]int{}
	for _, rec := range recs {
		var back []byte
		switch rec.Kind {
		case store.KindGame:
			back = reencodeGame(t, rec)
		case store.KindRound:
			back = reencodeRound(t, rec)
		case store.KindStaged:
			back = restage(t, rec)
		case store.KindView:
			var h items.View
			if err := items.Decode(rec, &h); err != nil {
				t.Fatal(err)
			}
			back = items.Encode(&store.Record{Kind: rec.Kind}, h).Doc
		case store.KindViewChunk:
			// Gzip bytes, kept as stored: they must still unzip to JSON
			// (a table's rows, or with the other pieces a response).
			back = rec.Doc
			if body, err := viewcache.Decompress(rec.Doc); err != nil || !json.Valid(body) {
				t.Errorf("%s/%s: the chunk does not unzip to JSON: %v", rec.PK, rec.SK, err)
			}
		case store.KindReadOnly, store.KindMirrorIn, store.KindMirrorOut, store.KindQueued:
			back = reencodeMirror(t, rec)
		default:
			back = reencode(t, rec)
			if added, ok := onlyZerosAdded(t, rec.Doc, back); ok {
				if len(added) > 0 {
					t.Logf("%s %s/%s: written again with fields added since, at their zero values: %v", rec.Kind, rec.PK, rec.SK, added)
				}
				back = rec.Doc
			}
		}
		seen[rec.Kind]++
		if !bytes.Equal(back, rec.Doc) {
			t.Errorf("%s %s/%s re-encoded differs:\n got %s\nwant %s", rec.Kind, rec.PK, rec.SK, back, rec.Doc)
		}
	}
	for _, k := range []string{store.KindTournament, store.KindPlayer, store.KindOfficial, store.KindRound, store.KindTeam, store.KindResult, store.KindLineup, store.KindGame,
		store.KindEntry, store.KindEntryName, store.KindFestival, store.KindView, store.KindViewChunk,
		store.KindReadOnly, store.KindMirrorIn, store.KindMirrorOut, store.KindQueued,
		store.KindImport, store.KindStaged, store.KindPairJob, store.KindDue} {
		if seen[k] == 0 {
			t.Errorf("the golden file holds no %s item", k)
		}
	}
}

// reencodeGame decodes a game item and encodes it again. The link is
// JSON and must come back byte for byte; the game's binary form may have
// grown since the item was stored (a newer release adds what it keeps
// after the older fields), so the game must come back as the same game —
// the same view at a fixed instant — and the new bytes must be a fixed
// point of decoding and encoding. It returns rec's document when all that
// holds, so the caller's comparison passes.
func reencodeGame(t *testing.T, rec *store.Record) []byte {
	t.Helper()
	it, err := games.Of(rec)
	if err != nil {
		t.Fatalf("%s/%s: %v", rec.PK, rec.SK, err)
	}
	out, err := games.Encode(&store.Record{PK: rec.PK, SK: rec.SK, Kind: rec.Kind}, it.Link, it.Game)
	if err != nil {
		t.Fatal(err)
	}
	again, err := games.Of(out)
	if err != nil {
		t.Fatalf("%s: the re-encoded item does not decode: %v", rec.PK, err)
	}
	twice, err := games.Encode(&store.Record{}, again.Link, again.Game)
	if err != nil {
		t.Fatal(err)
	}
	const at = 1_900_000_000_000
	was, _ := json.Marshal(games.ViewOf(it, at, 0))
	now, _ := json.Marshal(games.ViewOf(again, at, 0))
	switch {
	case !bytes.Equal(linkBytes(rec.Doc), linkBytes(out.Doc)):
		t.Errorf("%s: the link re-encoded as %s, stored %s", rec.PK, linkBytes(out.Doc), linkBytes(rec.Doc))
	case !bytes.Equal(was, now):
		t.Errorf("%s: the game re-encoded reads otherwise:\n got %s\nwant %s", rec.PK, now, was)
	case !bytes.Equal(twice.Doc, out.Doc):
		t.Errorf("%s: encoding is no fixed point", rec.PK)
	default:
		return rec.Doc
	}
	return out.Doc
}

// reencodeRound decodes a round stored whole (before rounds were staged)
// and encodes it again, which gives today's staged form: the head's shape
// (items.RoundHead) and the body. Both must decode to the same round, and
// the body with the head's fields put back must be the bytes stored. It
// returns rec's document when all that holds.
func reencodeRound(t *testing.T, rec *store.Record) []byte {
	t.Helper()
	var was tournament.Round
	if err := service.DecodeItem(rec, &was); err != nil {
		t.Fatal(err)
	}
	out := service.EncodeItem(&store.Record{Kind: rec.Kind}, &was)
	out.Build = "b" // as the store reads a staged round back
	var now tournament.Round
	if err := service.DecodeItem(out, &now); err != nil {
		t.Fatal(err)
	}
	var head struct {
		S int64 `json:"s"`
		G bool  `json:"g"`
	}
	if err := json.Unmarshal(out.Doc, &head); err != nil || head.S != was.StartsAt || head.G != was.GamesReady {
		t.Errorf("%s/%s: the head's shape %s does not hold the start and the games' mark", rec.PK, rec.SK, out.Doc)
	}
	whole, _ := json.Marshal(&now)
	if !bytes.Equal(whole, rec.Doc) {
		return whole
	}
	return rec.Doc
}

// The head of a staged round, byte for byte: a round started at an instant
// whose games are made, and one with neither.
func TestStoredBytes_RoundHead(t *testing.T) {
	for _, c := range []struct {
		r    tournament.Round
		want string
	}{
		{tournament.Round{Number: 1, StartsAt: 1795856400000, GamesReady: true}, `{"s":1795856400000,"g":true}`},
		{tournament.Round{Number: 2}, `{}`},
	} {
		if got := service.EncodeItem(&store.Record{Kind: store.KindRound}, &c.r).Doc; string(got) != c.want {
			t.Errorf("round %d's head: %s, want %s", c.r.Number, got, c.want)
		}
	}
}

// linkBytes is the link's JSON of a game item's document.
func linkBytes(doc []byte) []byte {
	n, k := binary.Uvarint(doc)
	if k <= 0 || uint64(len(doc)-k) < n {
		return nil
	}
	return doc[k : k+int(n)]
}

// restage reads a staged chunk of a multi-part import as the import reads
// it back (its lines, each an item as an export holds it) and stages the
// lines again as the import writes them.
func restage(t *testing.T, rec *store.Record) []byte {
	t.Helper()
	var again items.Staged
	for _, line := range bytes.SplitAfter(items.Staged(rec.Doc), []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		if _, err := store.ParseItem(bytes.TrimSuffix(line, []byte{'\n'})); err != nil {
			t.Fatalf("%s/%s: a staged line does not read as an item: %v", rec.PK, rec.SK, err)
		}
		again = append(again, line...)
	}
	return again
}

// reencodeMirror decodes a mirror's item (shared/service/mirror) into its
// stored shape and encodes it again: these items have had their shapes
// from the start, so the bytes must come back exactly.
func reencodeMirror(t *testing.T, rec *store.Record) []byte {
	t.Helper()
	var v any
	switch rec.Kind {
	case store.KindReadOnly:
		v = new(items.Mark)
	case store.KindMirrorIn:
		v = new(items.Copy)
	case store.KindMirrorOut:
		v = new(items.Mirror)
	case store.KindQueued:
		v = new(items.Queued)
	}
	if err := items.Decode(rec, v); err != nil {
		t.Fatal(err)
	}
	return items.Encode(&store.Record{Kind: rec.Kind}, v).Doc
}

// reencode decodes an event item into its core value through the
// service's codec (its stored shape, where one is spelled out) and encodes
// it again.
func reencode(t *testing.T, rec *store.Record) []byte {
	t.Helper()
	var v any
	switch rec.Kind {
	case store.KindTournament:
		v = new(tournament.Tournament)
	case store.KindPlayer:
		v = new(tournament.Player)
	case store.KindOfficial:
		v = new(tournament.Official)
	case store.KindRound:
		v = new(tournament.Round)
	case store.KindTeam:
		v = new(tournament.Team)
	case store.KindResult:
		v = new(tournament.Result)
	case store.KindLineup:
		v = new(tournament.Lineup)
	case store.KindFestival:
		v = new(service.Festival)
	case store.KindEntry:
		v = new(items.Entry) // the service works on the shape itself
	case store.KindEntryName:
		v = new(items.EntryName)
	case store.KindPairJob:
		v = new(items.PairJob) // the job's own shape: the service converts it (service.PairJob)
	case store.KindDue: // no core value: the work due is its stored shape
		var d items.Due
		if err := items.Decode(rec, &d); err != nil {
			t.Fatal(err)
		}
		return items.Encode(&store.Record{Kind: rec.Kind}, d).Doc
	case store.KindImport: // no core value: the import's state is its stored shape
		var st items.Import
		if err := items.Decode(rec, &st); err != nil {
			t.Fatal(err)
		}
		return items.Encode(&store.Record{Kind: rec.Kind}, st).Doc
	default:
		t.Fatalf("no shape for kind %s", rec.Kind)
	}
	if err := service.DecodeItem(rec, v); err != nil {
		t.Fatal(err)
	}
	return service.EncodeItem(&store.Record{Kind: rec.Kind}, v).Doc
}

// onlyZerosAdded reports whether re-encoded bytes hold every field stored,
// with the value stored, and besides them only fields at their zero value
// (a field a later release added, which an older item did not have):
// re-encoding an older item writes what it held and nothing else. It
// returns the added fields' paths.
func onlyZerosAdded(t *testing.T, stored, back []byte) ([]string, bool) {
	t.Helper()
	var was, now any
	if json.Unmarshal(stored, &was) != nil || json.Unmarshal(back, &now) != nil {
		return nil, false
	}
	var added []string
	var same func(path string, a, b any) bool
	same = func(path string, a, b any) bool {
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if !aok || !bok {
			x, _ := json.Marshal(a)
			y, _ := json.Marshal(b)
			return aok == bok && bytes.Equal(x, y)
		}
		for k, v := range am {
			if w, ok := bm[k]; !ok || !same(path+"."+k, v, w) {
				return false
			}
		}
		for k, w := range bm {
			if _, ok := am[k]; ok {
				continue
			}
			switch w := w.(type) {
			case nil:
			case bool:
				if w {
					return false
				}
			case float64:
				if w != 0 {
					return false
				}
			case string:
				if w != "" {
					return false
				}
			default:
				return false
			}
			added = append(added, path+"."+k)
		}
		return true
	}
	return added, same("", was, now)
}
