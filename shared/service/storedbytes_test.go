package service_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/items"
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
			it, err := games.Of(rec)
			if err != nil {
				t.Fatalf("%s/%s: %v", rec.PK, rec.SK, err)
			}
			out, err := games.Encode(&store.Record{}, it.Link, it.Game)
			if err != nil {
				t.Fatal(err)
			}
			back = out.Doc
		default:
			back = reencode(t, rec)
		}
		seen[rec.Kind]++
		if !bytes.Equal(back, rec.Doc) {
			t.Errorf("%s %s/%s re-encoded differs:\n got %s\nwant %s", rec.Kind, rec.PK, rec.SK, back, rec.Doc)
		}
	}
	for _, k := range []string{store.KindTournament, store.KindPlayer, store.KindOfficial, store.KindRound, store.KindTeam, store.KindResult, store.KindLineup, store.KindGame} {
		if seen[k] == 0 {
			t.Errorf("the golden file holds no %s item", k)
		}
	}
}

// reencode decodes an event item into its stored shape and encodes it again.
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
		v = new(items.Result)
	case store.KindLineup:
		v = new(tournament.Lineup)
	default:
		t.Fatalf("no shape for kind %s", rec.Kind)
	}
	if err := items.Decode(rec, v); err != nil {
		t.Fatal(err)
	}
	return items.Encode(&store.Record{Kind: rec.Kind}, v).Doc
}
