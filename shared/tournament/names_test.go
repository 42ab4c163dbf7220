package tournament

import (
	"errors"
	"testing"
)

func TestNamesRefuseControlAndFormatCharacters(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"  Wang Tianyi ", "Wang Tianyi", true},
		{"王天一", "王天一", true},
		{"", "", false},
		{"Li\x00", "", false},
		{"Zhao\u202eIRT", "", false}, // right-to-left override: display spoofing
		{"Chen\u200bHao", "", false}, // zero-width space
		{"Bad\xffUTF8", "", false},
		{string(make([]byte, 121)), "", false},
	}
	for _, tc := range cases {
		got, err := cleanName("name", tc.in, 120)
		var fe *FieldError
		if tc.ok && (err != nil || got != tc.want) {
			t.Errorf("cleanName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if !tc.ok && !errors.As(err, &fe) {
			t.Errorf("cleanName(%q) = %q, %v; want a field error", tc.in, got, err)
		}
	}
	var ev Tournament
	if _, err := ev.Register(Player{Name: "A", Club: "Club\u202e"}, 0); err == nil {
		t.Error("a club name with a bidi override was accepted")
	}
	if _, err := NewOfficial("o1", RoleArbiter, "Arb\u0007", nil, ""); err == nil {
		t.Error("an official's name with a control character was accepted")
	}
}
