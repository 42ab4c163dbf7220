package games

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/tournament"
)

// A request's time control: none is untimed, a name a preset, periods are
// checked by the clock, and an unknown preset is refused by its field (C-2).
func TestTimeControlControl(t *testing.T) {
	if c, err := (*TimeControl)(nil).Control(); err != nil || c.Name != "untimed" {
		t.Errorf("none: %+v, %v", c, err)
	}
	var named, timed TimeControl
	if err := json.Unmarshal([]byte(`"rapid-5/30"`), &named); err != nil {
		t.Fatal(err)
	}
	if c, err := named.Control(); err != nil || c.Name != "rapid-5/30" || len(c.Periods) == 0 {
		t.Errorf("a preset: %+v, %v", c, err)
	}
	if err := json.Unmarshal([]byte(`{"periods":[{"moves":40,"ms":5400000},{"moves":0,"ms":1800000}],"incrementMs":30000}`), &timed); err != nil {
		t.Fatal(err)
	}
	if c, err := timed.Control(); err != nil || len(c.Periods) != 2 || c.Periods[0].Moves != 40 || c.IncrementMs != 30000 {
		t.Errorf("periods: %+v, %v", c, err)
	}
	var fe *tournament.FieldError
	if _, err := (&TimeControl{Name: "rapid"}).Control(); !errors.As(err, &fe) || fe.Field != "timeControl" || fe.Rule != "C-2" {
		t.Errorf("an unknown preset: %v", err)
	}
	if _, err := (&TimeControl{Periods: []Period{{Moves: 40, Ms: -1}}}).Control(); err == nil {
		t.Error("a negative period was taken")
	}
}
