package core

import "sync"

// Holding runs find and then f on what it found, holding lock, and returns f's answer or the
// error of find: the shape of a handler that looks up the resource a request names and works
// on it. A service wraps it once a kind of resource, as withSecret(b, call, id, f).
func Holding[E, T any](lock sync.Locker, find func() (E, error), f func(E) (T, error)) (T, error) {
	lock.Lock()
	defer lock.Unlock()
	e, err := find()
	if err != nil {
		var none T
		return none, err
	}
	return f(e)
}
