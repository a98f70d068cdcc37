"""The live referee: listening, the timeline of calls and strikes, the strike detector's
calibration and reports."""
