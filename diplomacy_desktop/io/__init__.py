"""Text and file formats: order notation, DATC scenario files, save files.  No Qt."""
