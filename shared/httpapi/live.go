package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/store"
)

// GameJSON renders a stored game item (as the table, its stream or the local
// change feed carries it) as of nowMs, exactly as GET /games/{gid} answers it:
// the live updates push this body so a client handles one shape.
func GameJSON(rec *store.Record, nowMs int64) (json.RawMessage, error) {
	gid, ok := strings.CutPrefix(rec.PK, store.GamePK(""))
	if !ok || rec.SK != store.GameSK {
		return nil, fmt.Errorf("httpapi: %s/%s is not a game item", rec.PK, rec.SK)
	}
	sg, err := decodeGame(gid, rec)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as writeJSON encodes responses
	if err := enc.Encode(gameView(sg, nowMs, 0)); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
