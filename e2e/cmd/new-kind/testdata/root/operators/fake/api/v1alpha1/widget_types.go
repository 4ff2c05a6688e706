package v1alpha1

// Widget is the fake family's kind.
type Widget struct{}

// WidgetList is a list of Widgets.
type WidgetList struct{}
