package main

import (
	"bytes"
	"strings"
	"testing"
)

// On a loopback address the local stack is no venue server; on any other it
// needs a creation key (made when CREATION_KEY is unset) and prints where the
// venue's devices reach it, with a QR code.
func TestVenueMode(t *testing.T) {
	t.Setenv("CREATION_KEY", "")
	for _, addr := range []string{"127.0.0.1:3000", "localhost:3000", "[::1]:3000"} {
		if v, err := venueMode(addr); err != nil || v != nil {
			t.Errorf("%s: %v %v, want no venue", addr, v, err)
		}
	}
	v, err := venueMode("192.168.1.20:3000")
	if err != nil || v == nil {
		t.Fatalf("LAN address: %v %v", v, err)
	}
	if len(v.key) != 32 || len(v.urls) != 1 || v.urls[0] != "http://192.168.1.20:3000" {
		t.Fatalf("LAN address: key %q, urls %v", v.key, v.urls)
	}
	var out bytes.Buffer
	v.print(&out)
	if s := out.String(); !strings.Contains(s, "http://192.168.1.20:3000") || !strings.Contains(s, v.key) || !strings.Contains(s, "█") {
		t.Errorf("printed:\n%s", s)
	}
	if other, _ := venueMode("192.168.1.20:3000"); other.key == v.key {
		t.Error("two runs made the same creation key")
	}
	t.Setenv("CREATION_KEY", "chosen")
	if v, _ := venueMode("0.0.0.0:3000"); v == nil || v.key != "" {
		t.Errorf("with CREATION_KEY set: %+v", v)
	}
	if _, err := venueMode("nonsense"); err == nil {
		t.Error("an ADDR without a port was accepted")
	}
}
