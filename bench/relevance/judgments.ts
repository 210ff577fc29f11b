/**
 * The judged set: what a person types, the class of query it stands for, and the services of the
 * corpus (bench/relevance/corpus.ts) that answer it, graded 2 (what they are looking for) or 1
 * (useful, not the first thing they want). Every other service is graded 0. Judgments were written
 * from the corpus and what a signposting adviser would hand over, never from what the search
 * returned. A query of class `none` should find nothing.
 *
 * `relevant` is a list of service keys, `key` for grade 2 and `key:1` for grade 1.
 */

export const QUERY_CLASSES = [
  'exact_name',
  'organization',
  'stemming',
  'spelling',
  'typo_short',
  'typo_long',
  'compound',
  'abbreviation',
  'lay_need',
  'multi_word',
  'none',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export type Judgment = { query: string; class: QueryClass; grades: Record<string, 1 | 2> };

function q(query: string, queryClass: QueryClass, relevant = ''): Judgment {
  const grades: Record<string, 1 | 2> = {};
  for (const entry of relevant.split(/\s+/).filter(Boolean)) {
    const [key, grade] = entry.split(':') as [string, string | undefined];
    grades[key] = grade === '1' ? 1 : 2;
  }
  return { query, class: queryClass, grades };
}

export const JUDGMENTS: readonly Judgment[] = [
  // A service's own name, as a person copies it from a leaflet.
  q('Torry Foodbank', 'exact_name', 'torry-foodbank'),
  q('Winter Night Shelter', 'exact_name', 'night-shelter family-shelter:1'),
  q('Listening Ear', 'exact_name', 'listening-ear'),
  q("Men's Shed", 'exact_name', 'mens-shed'),
  q('Dementia Café', 'exact_name', 'dementia-cafe'),
  q('Home-Start Family Support', 'exact_name', 'home-start'),
  q('Dial-a-Ride', 'exact_name', 'accessible-transport'),
  q('Quit Your Way', 'exact_name', 'smoking'),
  q('Repair Cafe', 'exact_name', 'repair-cafe'),
  q('Incredible Years Parenting Course', 'exact_name', 'parenting-course'),
  q('Bike Library', 'exact_name', 'bike-scheme'),
  q('Meals on Wheels', 'exact_name', 'meals-on-wheels'),
  q('Tenancy Sustainment Service', 'exact_name', 'tenancy-sustainment'),
  q('Pharmacy First', 'exact_name', 'pharmacy'),
  q('Head Start Preschool', 'exact_name', 'head-start'),
  // The organization that runs it.
  q('Trussell Trust', 'organization', 'north-food-bank'),
  q('Samaritans', 'organization', 'samaritans'),
  q('Salvation Army', 'organization', 'family-shelter'),
  q('Cyrenians', 'organization', 'homeless-drop-in laundrette'),
  q('Relationships Scotland', 'organization', 'anger-management relationship-counselling divorce-mediation'),
  q('Age Scotland', 'organization', 'age-scotland'),
  q('Christians Against Poverty', 'organization', 'debt-advice-centre'),
  q('StepChange', 'organization', 'stepchange'),
  q('Shelter Scotland', 'organization', 'private-renters'),
  q('NSPCC', 'organization', 'child-protection'),
  q('United Way', 'organization', 'tax-prep 211-helpline'),
  q('Planned Parenthood', 'organization', 'planned-parenthood'),
  q('Alzheimer Scotland', 'organization', 'dementia-cafe'),
  q('Cruse', 'organization', 'bereavement-support'),
  q('Alcohol and Drugs Action', 'organization', 'alcohol-service needle-exchange'),
  // A word in another form than the one written.
  q(
    'counsellor',
    'stemming',
    'counselling-service relationship-counselling youth-counselling counseling-center:1 anger-management:1',
  ),
  q(
    'parents',
    'stemming',
    'parenting-course family-hub dads-group home-start:1 send-advice:1 divorce-mediation:1 relationship-counselling:1 baby-bank:1 maternity:1 holiday-meals:1 school-uniform:1 prison-families:1 family-shelter:1',
  ),
  q('apprenticeship', 'stemming', 'apprenticeships'),
  q('volunteers', 'stemming', 'volunteering medical-rides:1 befriending:1 home-start:1'),
  q('evicted', 'stemming', 'eviction-defense rental-assistance private-renters:1 housing-options:1'),
  q(
    'refugee',
    'stemming',
    'refugee-welcome refugee-resettlement immigration-advice esol-classes:1 interpreting:1',
  ),
  q('carer', 'stemming', 'carers-centre young-carers respite dementia-cafe:1'),
  q('mediator', 'stemming', 'divorce-mediation'),
  q('walks', 'stemming', 'walking-group'),
  q('dentists', 'stemming', 'emergency-dentist dental-school community-health-center:1'),
  q('budgeting', 'stemming', 'money-matters financial-coaching debt-advice-centre cab-aberdeen:1'),
  q('cooking meals', 'stemming', 'meals-on-wheels lunch-club holiday-meals:1 soup-kitchen:1'),
  q('grieving', 'stemming', 'bereavement-support child-bereavement'),
  q('injecting', 'stemming', 'needle-exchange'),
  q('addicted', 'stemming', 'opioid-treatment alcohol-service aa gambling:1 needle-exchange:1'),
  // UK and US spellings of one word.
  q(
    'counseling',
    'spelling',
    'counselling-service counseling-center relationship-counselling youth-counselling',
  ),
  q(
    'counselling',
    'spelling',
    'counselling-service counseling-center relationship-counselling youth-counselling',
  ),
  q('pediatric', 'spelling', 'community-health-center'),
  q('paediatrics', 'spelling', 'community-health-center'),
  q('programme', 'spelling', 'opioid-treatment early-intervention holiday-meals apprenticeships mentoring'),
  q('program', 'spelling', 'opioid-treatment early-intervention holiday-meals apprenticeships mentoring'),
  q('behaviour', 'spelling', 'counseling-center'),
  q(
    'centre',
    'spelling',
    'homeless-drop-in carers-centre rape-crisis law-centre walk-in-centre debt-advice-centre senior-center community-health-center counseling-center pride-centre learning-disability american-job-center volunteering',
  ),
  q(
    'center',
    'spelling',
    'homeless-drop-in carers-centre rape-crisis law-centre walk-in-centre debt-advice-centre senior-center community-health-center counseling-center pride-centre learning-disability american-job-center volunteering',
  ),
  q('defence', 'spelling', 'eviction-defense'),
  q('nappies', 'spelling', 'baby-bank diaper-bank'),
  q('diapers', 'spelling', 'diaper-bank baby-bank'),
  q('resume help', 'spelling', 'american-job-center cv-clinic'),
  q('CV', 'spelling', 'cv-clinic american-job-center'),
  // A typo in a word of four letters or fewer.
  q(
    'dept advice',
    'typo_short',
    'debt-advice-centre stepchange cab-aberdeen money-matters:1 financial-coaching:1',
  ),
  q(
    'fod bank',
    'typo_short',
    'torry-foodbank north-food-bank eastside-pantry:1 community-larder:1 mobile-pantry:1',
  ),
  q('rnet', 'typo_short', 'rental-assistance tenancy-sustainment private-renters:1 eviction-defense:1'),
  q('jbos', 'typo_short', 'jobcentre american-job-center cv-clinic supported-employment:1'),
  q('dentst', 'typo_short', 'emergency-dentist dental-school'),
  q('yuoth club', 'typo_short', 'youth-club'),
  q(
    'hosuing',
    'typo_short',
    'housing-options tenancy-sustainment private-renters housing-authority youth-hostel:1',
  ),
  q('bnefits', 'typo_short', 'welfare-rights cab-aberdeen benefit-appeals money-matters:1'),
  q('meels', 'typo_short', 'meals-on-wheels lunch-club holiday-meals soup-kitchen:1'),
  q('cerers', 'typo_short', 'carers-centre young-carers respite'),
  q('baby bnak', 'typo_short', 'baby-bank diaper-bank:1'),
  q('vet', 'typo_short', 'veterinary'),
  q(
    'lgal advice',
    'typo_short',
    'law-centre legal-aid cab-aberdeen eviction-defense:1 employment-tribunal:1',
  ),
  q('debd', 'typo_short', 'debt-advice-centre stepchange cab-aberdeen money-matters:1 financial-coaching:1'),
  // A typo in a longer word.
  q(
    'counciling',
    'typo_long',
    'counselling-service counseling-center relationship-counselling youth-counselling',
  ),
  q('bereavment', 'typo_long', 'bereavement-support child-bereavement'),
  q(
    'homelessnes',
    'typo_long',
    'homeless-drop-in street-outreach housing-options night-shelter:1 family-shelter:1',
  ),
  q('accomodation', 'typo_long', 'youth-hostel housing-options womens-aid night-shelter:1'),
  q('domestic violance', 'typo_long', 'dv-hotline womens-aid idva mens-advice'),
  q('alchohol', 'typo_long', 'alcohol-service aa'),
  q('dementai', 'typo_long', 'dementia-cafe'),
  q('psychiatrist', 'typo_long', 'counseling-center'),
  q('employmnet', 'typo_long', 'supported-employment employment-tribunal jobcentre:1 american-job-center:1'),
  q('apprentiseship', 'typo_long', 'apprenticeships'),
  q('pregnacy', 'typo_long', 'planned-parenthood maternity wic-clinic postnatal-depression:1'),
  q('wheelchiar', 'typo_long', 'wheelchair'),
  q('immigation lawyer', 'typo_long', 'immigration-advice daca'),
  q('childminer', 'typo_long', 'childminders'),
  q('breastfeading', 'typo_long', 'breastfeeding'),
  // One word or two.
  q(
    'foodbank',
    'compound',
    'torry-foodbank north-food-bank eastside-pantry:1 community-larder:1 mobile-pantry:1',
  ),
  q(
    'food bank',
    'compound',
    'torry-foodbank north-food-bank eastside-pantry:1 community-larder:1 mobile-pantry:1',
  ),
  q(
    'food banks',
    'compound',
    'torry-foodbank north-food-bank eastside-pantry:1 community-larder:1 mobile-pantry:1',
  ),
  q('night shelter', 'compound', 'night-shelter family-shelter:1'),
  q('nightshelter', 'compound', 'night-shelter family-shelter:1'),
  q('childcare', 'compound', 'funded-childcare childminders after-school head-start family-hub:1'),
  q('child care', 'compound', 'funded-childcare childminders after-school head-start family-hub:1'),
  q('babybank', 'compound', 'baby-bank'),
  q('walk in centre', 'compound', 'walk-in-centre'),
  q('walkin clinic', 'compound', 'walk-in-centre free-clinic:1'),
  q('dropin', 'compound', 'homeless-drop-in listening-ear:1 youth-club:1'),
  q(
    'helpline',
    'compound',
    'stepchange age-scotland silver-line mens-advice forced-marriage samaritans prison-families eating-disorders child-protection bereavement-support crisis-line consumer-rights:1 private-renters:1 211-helpline:1 dv-hotline:1',
  ),
  q('day care', 'compound', 'learning-disability funded-childcare:1 childminders:1'),
  q('youthclub', 'compound', 'youth-club'),
  q('breast feeding', 'compound', 'breastfeeding'),
  // Abbreviations people use.
  q('CAB', 'abbreviation', 'cab-aberdeen'),
  q('GP', 'abbreviation', 'gp-surgery walk-in-centre:1 community-health-center:1'),
  q('DV', 'abbreviation', 'dv-hotline womens-aid idva mens-advice'),
  q('DWP', 'abbreviation', 'jobcentre'),
  q('NHS dentist', 'abbreviation', 'emergency-dentist'),
  q('PIP', 'abbreviation', 'welfare-rights benefit-appeals'),
  q('UC', 'abbreviation', 'welfare-rights jobcentre'),
  q('SEND', 'abbreviation', 'send-advice autism-support early-intervention learning-disability:1'),
  q('ESOL', 'abbreviation', 'esol-classes esl-classes'),
  q('ESL', 'abbreviation', 'esl-classes esol-classes'),
  q('AA meetings', 'abbreviation', 'aa'),
  q('STI test', 'abbreviation', 'sexual-health-clinic planned-parenthood pride-centre:1'),
  q('PTSD', 'abbreviation', 'ptsd-group veterans-first:1'),
  q('LGBT', 'abbreviation', 'lgbt-youth trans-support pride-centre'),
  q('SNAP', 'abbreviation', 'snap-help'),
  q('EBT', 'abbreviation', 'snap-help'),
  q('IDVA', 'abbreviation', 'idva'),
  q('A&E', 'abbreviation', 'walk-in-centre'),
  // What people feel or need, in their words.
  q(
    "can't pay rent",
    'lay_need',
    'rental-assistance tenancy-sustainment cab-aberdeen:1 housing-options:1 eviction-defense:1 debt-advice-centre:1 stepchange:1',
  ),
  q(
    'lonely',
    'lay_need',
    'befriending silver-line mens-shed lunch-club:1 senior-center:1 walking-group:1 refugee-welcome:1 home-start:1 volunteering:1',
  ),
  q(
    'somewhere to sleep',
    'lay_need',
    'night-shelter family-shelter housing-options womens-aid:1 youth-hostel:1',
  ),
  q(
    'somewhere to sleep tonight',
    'lay_need',
    'night-shelter family-shelter housing-options womens-aid:1 youth-hostel:1',
  ),
  q(
    'no food',
    'lay_need',
    'torry-foodbank north-food-bank eastside-pantry community-larder mobile-pantry:1 soup-kitchen:1 crisis-grant:1 community-fridge:1',
  ),
  q(
    'hungry',
    'lay_need',
    'torry-foodbank north-food-bank eastside-pantry soup-kitchen community-larder:1 community-fridge:1 mobile-pantry:1',
  ),
  q('I feel suicidal', 'lay_need', 'samaritans crisis-line'),
  q('my partner hits me', 'lay_need', 'womens-aid dv-hotline mens-advice idva:1'),
  q('sacked from work', 'lay_need', 'employment-tribunal law-centre:1 cab-aberdeen:1'),
  q('unfair dismissal', 'lay_need', 'employment-tribunal law-centre:1 cab-aberdeen:1'),
  q('toothache', 'lay_need', 'emergency-dentist dental-school:1'),
  q('cold house', 'lay_need', 'fuel-poverty liheap fuel-bank library-warm-space:1'),
  q("can't afford heating", 'lay_need', 'fuel-poverty liheap fuel-bank library-warm-space:1'),
  q('kicked out', 'lay_need', 'housing-options youth-hostel eviction-defense:1 night-shelter:1'),
  q('drinking too much', 'lay_need', 'alcohol-service aa'),
  q(
    'struggling with money',
    'lay_need',
    'money-matters debt-advice-centre stepchange financial-coaching cab-aberdeen:1',
  ),
  q('need a doctor', 'lay_need', 'gp-surgery free-clinic walk-in-centre community-health-center:1'),
  q('sleeping rough', 'lay_need', 'street-outreach homeless-drop-in night-shelter housing-options:1'),
  q(
    'depressed',
    'lay_need',
    'counselling-service listening-ear counseling-center postnatal-depression:1 samaritans:1 ptsd-group:1 crisis-line:1',
  ),
  q('someone died', 'lay_need', 'bereavement-support child-bereavement'),
  // Several words, each in a different field or all in one.
  q('food bank aberdeen', 'multi_word', 'north-food-bank torry-foodbank:1'),
  q(
    'mental health support',
    'multi_word',
    'counselling-service listening-ear samaritans:1 counseling-center:1 trans-support:1 veterans-first:1 mens-shed:1 postnatal-depression:1 crisis-line:1 ptsd-group:1 eating-disorders:1 gambling:1',
  ),
  q(
    'debt advice',
    'multi_word',
    'debt-advice-centre stepchange cab-aberdeen money-matters:1 financial-coaching:1',
  ),
  q('young carers', 'multi_word', 'young-carers carers-centre:1'),
  q(
    'free legal advice',
    'multi_word',
    'law-centre legal-aid cab-aberdeen:1 eviction-defense:1 employment-tribunal:1',
  ),
  q('english classes for adults', 'multi_word', 'esol-classes esl-classes adult-literacy:1'),
  q(
    'help for older people',
    'multi_word',
    'age-scotland befriending silver-line:1 lunch-club:1 home-care:1 senior-center:1 pension-credit:1 home-repairs:1 falls:1',
  ),
  q('parenting support', 'multi_word', 'parenting-course family-hub dads-group:1 home-start:1'),
  q('sexual health clinic', 'multi_word', 'sexual-health-clinic planned-parenthood:1'),
  q('domestic abuse refuge', 'multi_word', 'womens-aid dv-hotline:1'),
  q(
    'benefits advice',
    'multi_word',
    'welfare-rights cab-aberdeen benefit-appeals age-scotland:1 money-matters:1',
  ),
  q('free school meals holidays', 'multi_word', 'holiday-meals'),
  q('rides to hospital', 'multi_word', 'medical-rides accessible-transport:1'),
  q('support for veterans', 'multi_word', 'veterans-first va-clinic ptsd-group'),
  q('drug treatment', 'multi_word', 'opioid-treatment alcohol-service needle-exchange:1'),
  // Nothing in the directory answers these; the best answer is no result.
  q('skydiving lessons', 'none'),
  q('ferrari dealership', 'none'),
  q('quantum physics', 'none'),
  q('xyzzy', 'none'),
  q('cryptocurrency trading', 'none'),
  q('wedding photographer', 'none'),
  q('zzzzzzzz', 'none'),
  q('submarine', 'none'),
  q('tattoo removal', 'none'),
  q('horse riding', 'none'),
  q('golf', 'none'),
  q('ski hire', 'none'),
  // Added with search by meaning (issue 33), to calibrate how close a meaning must be: everyday
  // requests a directory of human services does not answer, some near a need in wording.
  q('guitar lessons for beginners', 'none'),
  q('stock market news', 'none'),
  q('hair salon', 'none'),
  q('karaoke bar', 'none'),
  q('holiday cottage to rent', 'none'),
  q('wine tasting evening', 'none'),
  q('buy a new sofa', 'none'),
  q('best laptop deals', 'none'),
  q('concert tickets', 'none'),
  q('learn to sail', 'none'),
  q('luxury spa weekend', 'none'),
  q('antique clock repair', 'none'),
];
