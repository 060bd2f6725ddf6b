"""The board drawing: the map scene and view, the board picture, unit and order items, colours, `render`."""
