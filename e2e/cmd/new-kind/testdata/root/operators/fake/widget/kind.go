// Package widget manages widgets for the Widget kind.
package widget
