package org.sandboxslo.engine.diagnosis;

import java.util.List;
import org.sandboxslo.engine.finding.Finding;

/** One kind of diagnosis: reads the context, appends its findings. Pure; never throws for state. */
public interface Diagnosis {
  void diagnose(DiagnosisContext ctx, List<Finding> out);
}
