package differential

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// motoServers are the moto_server processes the package's tests share: one for each set of
// MOTO_ settings a test starts moto with (most tests give none). Starting moto_server and
// loading a service's backend cost a few CPU-seconds each, so sharing them makes the package's
// tests about a minute faster; the state is reset before each test.
var motoServers struct {
	mu   sync.Mutex
	urls map[string]string
	cmds []*exec.Cmd
}

// TestMain runs the tests, then stops the shared moto_server processes.
func TestMain(m *testing.M) {
	code := m.Run()
	motoServers.mu.Lock()
	for _, cmd := range motoServers.cmds {
		stopPeer(cmd)
	}
	motoServers.mu.Unlock()
	os.Exit(code)
}

// motoPeer returns the URL of a moto_server started with the settings env and reset to its empty
// state (POST /moto-api/reset), shared with the package's other tests, or skips the test when
// moto_server is not on the PATH. The tests of the package do not run in parallel, so a test
// has the server to itself.
func motoPeer(t *testing.T, env ...string) string {
	t.Helper()
	bin := motoServer(t)
	key := strings.Join(env, " ")
	motoServers.mu.Lock()
	defer motoServers.mu.Unlock()
	url, ok := motoServers.urls[key]
	if !ok {
		port := freePort(t)
		var cmd *exec.Cmd
		cmd, url = launchPeer(t, port, env, bin, "-H", "127.0.0.1", "-p", strconv.Itoa(port))
		if motoServers.urls == nil {
			motoServers.urls = map[string]string{}
		}
		motoServers.urls[key] = url
		motoServers.cmds = append(motoServers.cmds, cmd)
		return url
	}
	resp, err := http.Post(url+"/moto-api/reset", "application/json", nil)
	if err != nil {
		t.Fatalf("reset moto_server: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("reset moto_server: %s: %s", resp.Status, body)
	}
	return url
}
