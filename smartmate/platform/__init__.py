"""The shared core every app may import: it imports no app (and these modules import no Django)."""
