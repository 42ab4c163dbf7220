package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"slices"

	"github.com/skip2/go-qrcode"
)

// venue is what the local stack prints when it serves the venue's network:
// the addresses phones and tablets there can open, and the creation key that
// keeps anyone on that network from creating events on the organiser's
// machine.
type venue struct {
	urls []string
	// key is the creation key made for this run (CREATION_KEY unset); empty
	// when the environment gave one.
	key string
}

// venueMode reads ADDR: a loopback address is no venue (nil); any other
// needs a creation key (one is made when CREATION_KEY is unset) and is
// reached at its LAN addresses (every interface's, for 0.0.0.0 or ::).
func venueMode(addr string) (*venue, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("ADDR %q: %w", addr, err)
	}
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && ip.IsLoopback() {
		return nil, nil
	}
	v := &venue{}
	if os.Getenv("CREATION_KEY") == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		v.key = hex.EncodeToString(b)
	}
	hosts := []string{host}
	if ip == nil || ip.IsUnspecified() {
		hosts = lanAddresses()
		if ip == nil && host != "" {
			hosts = []string{host}
		}
	}
	for _, h := range hosts {
		v.urls = append(v.urls, "http://"+net.JoinHostPort(h, port))
	}
	return v, nil
}

// lanAddresses are this machine's IPv4 addresses other than loopback and
// link-local: where the venue's devices reach it.
func lanAddresses() []string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.To4() == nil || n.IP.IsLoopback() || n.IP.IsLinkLocalUnicast() {
			continue
		}
		out = append(out, n.IP.String())
	}
	slices.Sort(out)
	return out
}

// print writes the venue's addresses, a QR code of the first, and the
// creation key made for this run.
func (v *venue) print(w io.Writer) {
	if v == nil {
		return
	}
	for _, u := range v.urls {
		fmt.Fprintf(w, "venue: open %s on the venue's phones and tablets\n", u)
	}
	if len(v.urls) > 0 {
		if q, err := qrcode.New(v.urls[0], qrcode.Low); err == nil {
			fmt.Fprint(w, q.ToSmallString(false))
		}
	}
	if v.key != "" {
		fmt.Fprintf(w, "venue: creating events needs the creation key %s (X-Creation-Key; set CREATION_KEY to choose it)\n", v.key)
	} else {
		fmt.Fprintln(w, "venue: creating events needs the creation key in CREATION_KEY (X-Creation-Key)")
	}
}
